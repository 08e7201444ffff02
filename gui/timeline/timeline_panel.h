// The Run view's timeline card: a step picker over the run's sampled steps, a
// "Follow latest" box, a one-line summary (step time, each rank's wait) and the
// TimelineChart. It never reads the store: the owner feeds it the sampled steps on
// every refresh and answers stepRequested with the step's timeline.
#pragma once

#include "storage/timeline.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace zerolab {

class TimelineChart;

// UI thread only. Usage (RunView):
//   connect(panel, &TimelinePanel::stepRequested, ...load RunReader::timeline(run, step)
//           on the store thread, then panel->setTimeline(result or StepTimeline{step}));
//   on every refresh: panel->setSteps(RunReader::timelineSteps(run));
//   on opening another run: panel->clear();
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // The run's sampled steps, ascending. While following (the default), a new latest
    // step is requested at once; otherwise the picked step stays. No step: the chart
    // explains how to record one.
    void setSteps(std::vector<long long> steps);
    // The answer to stepRequested. An answer for another step than the last one
    // requested (a late reply) is dropped; one without spans shows a message.
    void setTimeline(const StepTimeline& timeline);
    // The answer to stepRequested when the stored timeline is damaged: the chart shows
    // `message` (it names the run, the table and the value) in its place.
    void setFailed(long long step, const QString& message);
    // Forget the run: no steps, nothing requested, following again.
    void clear();

    const std::vector<long long>& steps() const { return m_steps; }
    long long requestedStep() const { return m_requested; } // -1: none
    long long shownStep() const { return m_shown; }         // -1: none
    bool following() const;
    void setFollowing(bool on);
    // What picking `step` in the combo does: request it; a step other than the latest
    // stops following.
    void pickStep(long long step);
    QString summary() const;
    TimelineChart* chart() const { return m_chart; }
    // The step-time model's forecast of the run's step (StepTimeForecast::timeline, rank
    // 0's compute and comm lanes): drawn under the measured chart in the same lanes and on
    // one time axis with it (the longer step's; the plot areas start and end at the same
    // pixel, and a zoom or pan of one is the other's), while a measured step is shown.
    // nullopt: none.
    void setForecast(const std::optional<StepTimeline>& forecast);
    TimelineChart* forecastChart() const { return m_forecastChart; }
    bool showsForecast() const;

signals:
    void stepRequested(long long step);

protected:
    void changeEvent(QEvent* event) override;

private:
    // Every text of the panel in the current language (the chart retranslates itself);
    // the picked step, following and the chart's zoom are kept.
    void retranslate();
    // The chart's explanation of how to record a timeline (a run that sampled none).
    void showNoTimeline();
    void request(long long step);
    void selectInCombo(long long step);
    // The forecast chart for the shown step (hidden without a forecast or a shown step).
    void showForecast();
    // Both charts on the longer step's time axis, their plot areas aligned; or, without a
    // forecast, the measured chart on its own.
    void shareTimeAxis();

    QComboBox* m_combo;
    QCheckBox* m_follow;
    QLabel* m_stepLabel;
    QLabel* m_summary;
    TimelineChart* m_chart;
    QLabel* m_forecastLabel;
    TimelineChart* m_forecastChart;
    std::optional<StepTimeline> m_forecast;
    std::vector<long long> m_steps;
    long long m_requested = -1;
    long long m_shown = -1;
    bool m_syncing = false; // a range passed from one chart to the other
};

} // namespace zerolab
