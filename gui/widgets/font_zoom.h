// Presentation mode's font zoom (Ctrl +, Ctrl -, Ctrl 0): one factor for every text of
// the app, the widgets' fonts and style sheets and every chart's axes, legends and labels.
// Charts take part through attachChartActions() (chart_actions.h); see gui/README.md.
#pragma once

#include <QFont>
#include <QList>
#include <QObject>
#include <QPointer>

class QCustomPlot;
class QWidget;

namespace zerolab {

// UI thread only; one per application (instance()).
class FontZoom : public QObject {
    Q_OBJECT
public:
    static FontZoom& instance();

    // The zoom steps, smallest first; step 0 is kSteps[kNormalStep] = 1.
    static constexpr double kSteps[] = {0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5};
    static constexpr int kNormalStep = 2;
    static constexpr int kStepCount = int(sizeof(kSteps) / sizeof(kSteps[0]));

    double factor() const { return kSteps[m_step]; }
    int step() const { return m_step; }
    // Clamped to the table; applies the factor everywhere at once.
    void setStep(int step);
    void zoomIn() { setStep(m_step + 1); }
    void zoomOut() { setStep(m_step - 1); }
    void reset() { setStep(kNormalStep); }

    // The application font at factor 1 (what text of a plot is derived from).
    QFont baseFont() const;
    // Follows `plot` (until it is destroyed): its fonts take the factor now, on every
    // zoom and before each replot (items a chart creates later are scaled too).
    void track(QCustomPlot* plot);
    const QList<QPointer<QCustomPlot>>& trackedPlots() const { return m_plots; }
    // One chart's axes, legend items, text items and text elements at the factor.
    void applyTo(QCustomPlot* plot) const;
    // One widget's own font and style-sheet sizes at the factor.
    void applyTo(QWidget* widget) const;

signals:
    void changed(double factor);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FontZoom() = default;
    int m_step = kNormalStep;
    bool m_haveBase = false;
    QFont m_baseFont;
    QString m_baseSheet;
    QList<QPointer<QCustomPlot>> m_plots;
};

// The current zoom factor, for text a chart paints itself (QFont::setPointSizeF(7.5 * f)).
double fontZoomFactor();

} // namespace zerolab
