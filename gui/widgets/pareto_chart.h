// The Tune view's trade-off chart: each finished trial of a sweep as a point, tokens/s
// against peak memory per rank, coloured by ZeRO stage; the Pareto frontier drawn
// through the points nothing beats on both axes; the memory capacity per rank as a
// vertical line; the step-time model's forecast of each trial as a hollow point beside it. Hover
// names a trial, double-click asks to open it.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QMouseEvent;

namespace zerolab {

struct TrialPoint {
    long long id = 0;        // the caller's key (a trial number)
    int stage = 0;           // ZeRO stage 0-3: the point's colour
    double peak_bytes = 0;   // peak memory per rank (the largest rank)
    double tokens_per_s = 0; // median over the measured steps
    QString label;           // what the tooltip names, e.g. "stage 2 · N=2 · micro 8"
};

// UI thread only.
class ParetoChart : public QWidget {
    Q_OBJECT
public:
    explicit ParetoChart(QWidget* parent = nullptr);
    void setTrials(const QVector<TrialPoint>& trials);
    // The step-time model's tokens/s for trials (planned or finished) at their forecast
    // peak memory: hollow points in the stage's colour, each joined by a faint line to its
    // trial's measured point (same id) where there is one. Not on the frontier.
    void setForecasts(const QVector<TrialPoint>& forecasts);
    const QVector<TrialPoint>& forecasts() const { return m_forecasts; }
    // Bytes per rank the sweep may use; nullopt draws no line.
    void setCapacity(std::optional<double> bytes, const QString& name = {});

    QCustomPlot* plot() const { return m_plot; }
    // Trial ids on the frontier, by ascending memory.
    QVector<long long> frontierIds() const;
    // The colour of a stage's points (also the legend's).
    static QColor stageColor(int stage);

signals:
    void trialActivated(long long id);

protected:
    void changeEvent(QEvent* event) override;

private:
    // Axis titles, legend and notes in the current language (the capacity's name is the
    // owner's to set again).
    void retranslate();
    void rebuild();
    int trialAt(const QPointF& pixel) const; // index into m_trials, -1 when none
    void showTooltip(QMouseEvent* event);

    QCustomPlot* m_plot;
    QVector<TrialPoint> m_trials;
    QVector<TrialPoint> m_forecasts;
    std::vector<int> m_frontier; // indices into m_trials
    std::optional<double> m_capacity;
    QString m_capacityName;
    double m_unitDivisor = 1; // bytes per x-axis unit
};

} // namespace zerolab
