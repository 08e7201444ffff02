// The step-time forecast as a card: for stages 0-3 of one config, the step-time model's
// compute and exposed communication per step stacked (runtime/planner/step_time.h via
// gui/core/step_forecast.h), the step time and tokens/s over each bar, the config's own
// stage highlighted, and the profile it came from named (this machine's calibration or a
// cluster preset, picked in the card's combo). Setup shows it under the memory forecast.
// Under the chart, "Calibrate this machine…" with its progress bar and cancel: the card
// asks (calibrateRequested) and shows what it is told; the caller runs the calibration.
#pragma once

#include "gui/core/step_forecast.h"

#include <QWidget>

#include <array>
#include <optional>

class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;

namespace zerolab {

class TimeSourceCombo;

// UI thread only. predictStepTime is arithmetic, fast enough to run on every edit.
class StepTimeCard : public QWidget {
    Q_OBJECT
public:
    explicit StepTimeCard(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // The config whose stages are forecast (nullopt: no valid config; the card says so).
    void setConfig(const std::optional<TrainConfig>& config);
    // This machine's profile from the store, or why there is none (`missing`).
    void setMachineProfile(const std::optional<MachineProfile>& profile,
                           const QString& missing = {});

    TimeSourceCombo* sourceCombo() const { return m_source; }
    // Each stage's forecast at the config's other settings; nullopt where the model
    // refused (stageError says why).
    const std::array<std::optional<StepTimeForecast>, 4>& forecasts() const { return m_forecasts; }
    QString stageError(int stage) const { return m_errors[std::size_t(stage)]; }
    // The drawn bar layers of a stage, in seconds: 0 compute, 1 exposed communication.
    double barSeconds(int stage, int layer) const;
    // What the card names the profile by, and its one-line summary of the config's stage.
    QString profileText() const;
    QString summaryText() const;
    QCustomPlot* plot() const { return m_plot; }

    // The calibrate button is enabled while `available` (else its tooltip says `why`).
    void setCalibrationAvailable(bool available, const QString& why = {});
    // A calibration runs: the bar at `fraction` (0..1), `text` what it measures now.
    void showCalibrationProgress(double fraction, const QString& text);
    // It ended: the bar goes, `text` says how (done, cancelled, or the tool's error).
    void showCalibrationEnded(const QString& text);
    QPushButton* calibrateButton() const { return m_calibrate; }
    QPushButton* cancelCalibrationButton() const { return m_cancelCalibration; }
    QProgressBar* calibrationBar() const { return m_calibrationBar; }
    QString calibrationText() const;

signals:
    void calibrateRequested();
    void cancelCalibrationRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void reforecast();

    QLabel* m_heading;
    QLabel* m_sourceLabel;
    TimeSourceCombo* m_source;
    QLabel* m_summary;
    QCustomPlot* m_plot;
    QLabel* m_profile;
    QPushButton* m_calibrate;
    QProgressBar* m_calibrationBar;
    QPushButton* m_cancelCalibration;
    QLabel* m_calibrationText;
    QString m_calibrationUnavailable; // why the button is off ("" while on)
    std::optional<TrainConfig> m_config;
    QString m_missing;
    std::array<std::optional<StepTimeForecast>, 4> m_forecasts;
    std::array<QString, 4> m_errors;
    std::array<std::array<double, 2>, 4> m_bars{};
};

} // namespace zerolab
