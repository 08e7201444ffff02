// The planner's forecast as a card: per-rank stacked bars for stages 0-3 side by
// side, the selected stage highlighted, a device-capacity line and a one-line
// verdict. Shared by Setup (fed from the config) and Learn (fed from its inputs).
#pragma once

#include "runtime/planner/planner.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace zerolab {

class MemoryBarChart;

// UI thread only. plan() is pure arithmetic, fast enough to run on every edit.
class ForecastPanel : public QWidget {
    Q_OBJECT
public:
    explicit ForecastPanel(QWidget* parent = nullptr);

    // The card's heading; its owner sets it (again on a language change).
    void setTitle(const QString& title);

    // Plans `in` against the device chosen in the panel's combo; stages 0-3 are
    // drawn, in.stage is highlighted. Invalid input shows the planner's message.
    void setInput(const PlanInput& in);
    // Stale: the owner's input is invalid now, so the shown forecast (of the last valid
    // input) is greyed and the verdict says it is not of the current config.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    // The last successful plan (tests compare its numbers with the chart's).
    const std::optional<Plan>& currentPlan() const { return m_plan; }
    MemoryBarChart* chart() const { return m_chart; }
    // The chart's group (bar) of a stage's device memory: with offload a stage has two.
    int groupOfStage(int stage) const { return stage * m_groupsPerStage; }
    // Selects a device preset by key ("a100-80") or "host".
    void setDeviceKey(const QString& key);
    QString deviceKey() const;
    // The device memory the combo stands for, at this world size, with the reserve
    // of the panel's "Reserve" box (the device's default until the user edits it).
    DeviceCapacity device(int world) const;
    // The reserve box, in GB (1e9 bytes).
    void setReserveGb(double gb);
    double reserveGb() const;

signals:
    void deviceChanged();
    void stageClicked(int stage);

protected:
    void changeEvent(QEvent* event) override;

private:
    // Every text of the panel in the current language, and the verdict planned again.
    void retranslate();
    void replan();

    bool m_stale = false;
    MemoryBarChart* m_chart;
    QLabel* m_heading;
    QLabel* m_deviceLabel;
    QLabel* m_reserveLabel;
    QComboBox* m_device;
    QDoubleSpinBox* m_reserve;
    QLabel* m_verdict;
    QLabel* m_detail;
    std::optional<PlanInput> m_input;
    std::optional<Plan> m_plan;
    int m_groupsPerStage = 1; // 2 when a stage offloads: device and host bars
};

} // namespace zerolab
