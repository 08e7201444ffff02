// Learn's step time against the link between hosts: for the model and world the Learn
// controls describe, on a cluster preset (one GPU a host by default, so that every
// collective crosses the link; 2, 4 or 8 in the card's combo), the step-time model's step
// for stages 0-3 at inter-host bandwidths from 1 Gb/s to 1.6 Tb/s, and the bandwidth from
// which stage 3's extra gathers stop showing in the step (its exposed communication under
// 5% of the step). Every number is predictStepTime's (runtime/planner/step_time.h).
#pragma once

#include "runtime/planner/planner.h"
#include "runtime/planner/step_time.h"

#include <QWidget>

#include <array>
#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace zerolab {

class TimeSourceCombo;

// UI thread only.
class BandwidthCard : public QWidget {
    Q_OBJECT
public:
    explicit BandwidthCard(QWidget* parent = nullptr);

    // The Learn controls' input (params, world, precision, micro-batch; its shape or the
    // GPT-3 shape of its size, plan_time.h's timeConfig).
    void setInput(const PlanInput& in);
    // The memory chart beside the card: its device (a GPU preset key, "a100-80"), which the
    // card's profile follows whenever it changes, and which stages fit on it. A stage that
    // does not fit is drawn dashed and named so in the legend (issue 37 item 4): a step
    // time of a config that cannot run is not a choice.
    void setMemory(const QString& deviceKey, const std::array<bool, 4>& fits);
    bool stageFits(int stage) const { return m_fits[std::size_t(stage)]; }

    TimeSourceCombo* sourceCombo() const { return m_source; }
    // GPUs on each host: 1, 2, 4 or 8.
    void setGpusPerHost(int gpus);
    // The inter-host bandwidths drawn, bytes per second, ascending.
    static const std::vector<double>& bandwidths();
    // The forecast of `stage` at bandwidths()[point]; nullopt where the model refused.
    const std::optional<StepTimeForecast>& forecast(int stage, int point) const {
        return m_forecasts[std::size_t(stage)][std::size_t(point)];
    }
    // The config of `stage` as forecast (the world, the shape, micro-batch).
    const std::optional<TrainConfig>& config(int stage) const {
        return m_configs[std::size_t(stage)];
    }
    // The hosts the world spreads over (1: no inter-host link, the lines are flat).
    int hosts() const { return m_hosts; }
    // The lowest bandwidth from which stage 3's exposed communication stays under 5% of
    // its step at every bandwidth drawn above it; nullopt when it never does.
    std::optional<double> stageThreeHiddenFrom() const { return m_hiddenFrom; }
    QString verdictText() const;
    QCustomPlot* plot() const { return m_plot; }
    // The chart's height while the card is shown: ten bandwidths and four stages on two
    // log axes need it; Learn's pane grows to it (and gives it back when the card hides).
    static constexpr int kChartHeight = 190;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void retranslate();
    void reforecast();

    QLabel* m_heading;
    QLabel* m_sourceLabel;
    TimeSourceCombo* m_source;
    QLabel* m_perHostLabel;
    QComboBox* m_perHost;
    QCustomPlot* m_plot;
    QLabel* m_verdict;
    std::optional<PlanInput> m_input;
    std::array<std::optional<TrainConfig>, 4> m_configs;
    std::array<std::vector<std::optional<StepTimeForecast>>, 4> m_forecasts;
    int m_hosts = 1;
    std::optional<double> m_hiddenFrom;
    QString m_deviceKey;
    std::array<bool, 4> m_fits{true, true, true, true};
};

} // namespace zerolab
