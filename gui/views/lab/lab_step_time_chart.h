// The Lab's step-time chart: activations per run beside the step time, drawn as the median
// of the run's logged steps with a whisker from the fastest to the slowest step. Below it a
// warning in words when two runs' step times differ by less than that spread, so noise is
// not read as a result (three steps each on a shared machine: 165, 70 and 178 ms may all be
// one speed).
#pragma once

#include "storage/records.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <vector>

class QLabel;

namespace zerolab {

class GroupedBarChart;

// The step times (ms) of a run's logged steps with a finite step_ms.
struct StepTimeSpread {
    int steps = 0;
    double min = 0;
    double median = 0;
    double max = 0;
    double width() const { return max - min; }
};
StepTimeSpread stepTimeSpread(const std::vector<StepRecord>& steps);

// Two runs whose median step times differ by no more than the wider of their two spreads
// (max - min): the chart cannot tell which is faster.
struct StepTimeTie {
    int a = 0;
    int b = 0;
};
std::vector<StepTimeTie> stepTimeTies(const std::vector<StepTimeSpread>& spreads);

struct LabStepTimeRun {
    QString label;
    double measuredActivationMiB = 0;
    double plannedActivationMiB = 0;
    StepTimeSpread time;
};

// UI thread only.
class LabStepTimeChart : public QWidget {
    Q_OBJECT
public:
    explicit LabStepTimeChart(QWidget* parent = nullptr);
    void setRuns(const QVector<LabStepTimeRun>& runs);

    GroupedBarChart* activationChart() const { return m_activations; }
    GroupedBarChart* timeChart() const { return m_time; }
    // The words under the chart: what the whiskers are and, when runs tie, the warning.
    QString noteText() const;
    bool warns() const { return m_warns; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    QVector<LabStepTimeRun> m_runs;
    GroupedBarChart* m_activations;
    GroupedBarChart* m_time;
    QLabel* m_warning;
    QLabel* m_note;
    bool m_warns = false;
};

} // namespace zerolab
