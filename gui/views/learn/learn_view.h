// The Learn tab: the planner for large models. Parameter count with presets,
// world size 1-1024, precision, device and convention drive stacked bars for
// stages 0-3, the fit verdict and the planner's --explain text; the reference
// chapter's three scenarios are one click away, with its slips corrected.
#pragma once

#include "runtime/planner/paper_activations.h"
#include "runtime/planner/planner.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace zerolab {

class BandwidthCard;
class ForecastPanel;
class ZeroPPTrafficCard;

// UI thread only.
class LearnView : public QWidget {
    Q_OBJECT
public:
    explicit LearnView(QWidget* parent = nullptr);

    enum class Scenario {
        TenBillionOptimizer,
        SixPointSevenOnEight,
        OneSeventyFiveOnSixtyFour,
        ThirteenBillionOffload, // ZeRO-Offload: the optimizer on the host
        // The Llama family with its exact activation arena (activationFootprint), s = 4096.
        Llama8BOnEight,
        Llama70BOnSixtyFour,
        Llama405BOnH200,
    };
    void showScenario(Scenario s);

    // The planner input the controls describe (device from the forecast's combo).
    PlanInput input() const;
    ForecastPanel* forecast() const { return m_forecast; }
    // Step time against inter-host bandwidth, stages 0-3 (the third tab under the bars).
    BandwidthCard* bandwidth() const { return m_bandwidth; }
    // ZeRO++'s cross-host bytes per stage and variant (the fourth tab).
    ZeroPPTrafficCard* zeroppTraffic() const { return m_zeroppTraffic; }
    // Shows one of the tabs under the bars (0 how it adds up, 1 errata, 2 bandwidth,
    // 3 ZeRO++ traffic).
    void showTab(int index);
    QString explainText() const;
    int erratumRows() const;
    // The bars' logarithmic value axis (stage 3 at 175B is a sliver on a linear one).
    void setLogScale(bool on);
    // The model whose shape sizes the activations (a Llama preset), or none (ψ only).
    std::optional<ModelShape> modelShape() const;
    // For tests: the scenario text as shown, the activation line under the controls.
    QString scenarioText() const;
    QString activationFormulaText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    // Every text of the view in the current language; the forecast, the explanation
    // and the errata computed again from the same inputs.
    void retranslate();
    void showScenarioText();
    QWidget* buildControls();
    QWidget* buildScenarios();
    void update();
    // The chapter convention's drop onto its first stage planned in ZeRO's layout, marked
    // on the bars: how much is the layout switch and how much that stage's sharding.
    void markLayoutSwitch(const PlanInput& in);
    // The activation bytes per GPU the controls choose (and the formula), or none.
    std::optional<PaperActivations> activations(double psi) const;
    // m_activationSource's items: not counted, given, then one per Recompute mode for the
    // Korthikanti formula, then one per mode for the model's exact arena.
    static constexpr int kNotCounted = 0, kGiven = 1, kPaper = 2, kExact = 5;
    // The loaded Llama scenario's numbers, from the forecast's plan (one line).
    QString llamaScenarioLine() const;

    QDoubleSpinBox* m_params;
    QSlider* m_worldSlider;
    QSpinBox* m_world;
    QComboBox* m_precision;
    QComboBox* m_convention;
    QComboBox* m_activationSource;
    QDoubleSpinBox* m_activations;
    QSpinBox* m_microBatch;
    QComboBox* m_model; // 0: ψ only; then the Llama presets (their names as item data)
    QSpinBox* m_seqLen; // s for the exact arena, up to the model's context
    QLabel* m_activationFormula;
    QCheckBox* m_logScale;
    int m_stage = 1;
    OffloadDevice m_offload = OffloadDevice::None; // set by the ZeRO-Offload scenario
    ForecastPanel* m_forecast;
    QPlainTextEdit* m_explain;
    QLabel* m_scenarioText;
    QTableWidget* m_errata;
    BandwidthCard* m_bandwidth;
    ZeroPPTrafficCard* m_zeroppTraffic;
    QTabWidget* m_tabs;
    QGroupBox* m_controlsBox = nullptr;
    QGroupBox* m_scenariosBox = nullptr;
    QList<QPushButton*> m_presetButtons; // ψ presets, with their values in billions
    QList<double> m_presetValues;
    QLabel* m_llamaHeading = nullptr;      // above the Llama family's scenarios
    QList<QPushButton*> m_scenarioButtons; // in Scenario order
    std::optional<Scenario> m_scenario;    // the scenario last loaded, if any
};

} // namespace zerolab
