// The Lab's step-time chart: the step time per run, drawn as the median of the run's logged
// steps with a whisker from the fastest to the slowest step, beside what explains it:
// activations (lesson 5), or, where the step checks its time against the step-time model
// (lesson 9), the bytes across the link and the forecast bar beside each measured one. Below
// it a warning in words when two runs' step times differ by less than that spread, so noise
// is not read as a result (three steps each on a shared machine: 165, 70 and 178 ms may all
// be one speed), and whether time is checked or only charted.
#pragma once

#include "storage/records.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <optional>
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
    // The step-time model's forecast (ms) where the step checks this run's time; a run
    // with one is drawn beside it, with the bytes across the link instead of activations.
    std::optional<double> forecastMs;
    double measuredAcrossPsi = 0; // bytes across the link per step / ψ
    double plannedAcrossPsi = 0;
};

// UI thread only.
class LabStepTimeChart : public QWidget {
    Q_OBJECT
public:
    explicit LabStepTimeChart(QWidget* parent = nullptr);
    void setRuns(const QVector<LabStepTimeRun>& runs);

    // The left panel: activations, or the bytes across the link where time is checked.
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
