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
    // The ranks of the config forecast (0: none): each preset's item then names the cluster
    // the forecast uses for them, as its text below does ("2 × A100 40 GB (one host)").
    void setWorld(int world);
    TimeSource source() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::optional<MachineProfile> m_machine;
    std::vector<TimeSource> m_presets;
    int m_world = 0;
};

} // namespace zerolab
