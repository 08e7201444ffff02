// The combo that picks a step-time forecast's machine profile: "this machine (calibrated
// <date>)" when the store holds a calibration, then the cluster presets
// (gui/core/step_forecast.h). Setup, Tune and Learn each have one.
#pragma once

#include "gui/core/step_forecast.h"

#include <QComboBox>

#include <optional>
#include <vector>

namespace zerolab {

// UI thread only. Emits currentIndexChanged as a QComboBox does.
class TimeSourceCombo : public QComboBox {
    Q_OBJECT
public:
    explicit TimeSourceCombo(QWidget* parent = nullptr);

    // This machine's profile (nullopt: none stored; the item goes). A newly given profile
    // is chosen, so that a calibration shows at once.
    void setMachineProfile(const std::optional<MachineProfile>& profile);
    bool hasMachineProfile() const { return m_machine.has_value(); }
    // Chooses a preset by its GPU key ("a100-80"); false when there is none.
    bool selectPreset(const std::string& gpu);
    // GPUs on each host of every preset (8 by default), named in the items.
    void setRanksPerHost(int ranks);
    TimeSource source() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::optional<MachineProfile> m_machine;
    std::vector<TimeSource> m_presets;
};

} // namespace zerolab
