// A Lab memory chart: per-rank ledger bars, one per run (or per stage of a plan), that show
// a lesson's point first. With "Model states only" (on where the step is about model
// states) the bars hold params, master, grads and Adam m, v, what ZeRO shards, and the rest
// (activations, comm buffers, the CPU engine's workspace) stands apart beside them on the
// same scale, labelled. A legend names the categories drawn and the forecast's outline.
#pragma once

#include "storage/mem_category.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;

namespace zerolab {

class CategoryLegend;
class MemoryBarChart;

struct LabMemoryBar {
    QString label;
    MemBreakdown bytes;                    // the measured ledger (or the plan's)
    std::optional<MemBreakdown> predicted; // the planner's forecast, drawn as an outline
};

// UI thread only.
class LabMemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit LabMemoryChart(QWidget* parent = nullptr);

    void setBars(const QVector<LabMemoryBar>& bars);
    // psi > 0: every value in bytes per parameter (B/ψ); 0: bytes.
    void setPerParameter(double psi);
    void setCapacity(std::optional<double> bytes, const QString& label);
    void setHighlighted(int index);
    // "Memory per rank", "Memory per GPU": what the bars are, in every mode.
    void setSubject(const QString& subject);

    void setStatesOnly(bool on);
    bool statesOnly() const;
    // On paper: the switch is hidden (the titles say what the bars hold).
    void setPrinted(bool printed);

    // The lesson's bars (model states when statesOnly) and the rest beside them (hidden
    // when not statesOnly or when nothing is left), for tests and the report.
    MemoryBarChart* mainChart() const { return m_main; }
    MemoryBarChart* restChart() const { return m_rest; }
    bool restShown() const;
    CategoryLegend* legend() const { return m_legend; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void retranslate();

    QVector<LabMemoryBar> m_bars;
    double m_psi = 0;
    std::optional<double> m_capacity;
    QString m_capacityLabel;
    int m_highlighted = -1;
    QString m_subject;

    QCheckBox* m_statesOnly;
    QLabel* m_mainTitle;
    QLabel* m_restTitle;
    QWidget* m_restBox;
    MemoryBarChart* m_main;
    MemoryBarChart* m_rest;
    CategoryLegend* m_legend;
    QLabel* m_note;
};

} // namespace zerolab
