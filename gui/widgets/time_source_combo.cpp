// The profile combo of the step-time forecasts (time_source_combo.h): item 0 is this
// machine while a calibrated profile is known, the presets follow in cluster_presets.h's
// order; each item's data is its index into that list (-1: this machine).
#include "gui/widgets/time_source_combo.h"

#include <QEvent>
#include <QSignalBlocker>

#include <algorithm>

namespace zerolab {

namespace {
constexpr int kMachine = -1;
}

TimeSourceCombo::TimeSourceCombo(QWidget* parent) : QComboBox(parent), m_presets(clusterPresets()) {
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(18);
    fill();
}

void TimeSourceCombo::fill() {
    const int kept = count() > 0 ? currentData().toInt() : (m_machine ? kMachine : 0);
    const QSignalBlocker block(this);
    clear();
    if (m_machine) {
        TimeSource s;
        s.machine = m_machine;
        addItem(sourceName(s), kMachine);
    }
    for (int i = 0; i < int(m_presets.size()); ++i)
        addItem(sourceName(m_presets[std::size_t(i)], m_world), i);
    const int at = findData(kept);
    setCurrentIndex(at >= 0 ? at : 0);
}

void TimeSourceCombo::setMachineProfile(const std::optional<MachineProfile>& profile) {
    const bool wasMachine = count() > 0 && currentData().toInt() == kMachine;
    const bool fresh = profile && (!m_machine || m_machine->date != profile->date ||
                                   m_machine->name != profile->name);
    m_machine = profile;
    const int before = currentIndex();
    fill();
    if (fresh)
        setCurrentIndex(findData(kMachine));
    if (fresh || (wasMachine && !profile) || currentIndex() != before)
        emit currentIndexChanged(currentIndex());
}

bool TimeSourceCombo::selectPreset(const std::string& gpu) {
    for (int i = 0; i < int(m_presets.size()); ++i)
        if (m_presets[std::size_t(i)].gpu == gpu) {
            setCurrentIndex(findData(i));
            return true;
        }
    return false;
}

void TimeSourceCombo::setRanksPerHost(int ranks) {
    for (TimeSource& p : m_presets)
        p.ranks_per_host = std::max(1, ranks);
    fill();
    emit currentIndexChanged(currentIndex());
}

void TimeSourceCombo::setWorld(int world) {
    if (world == m_world)
        return;
    m_world = world;
    fill(); // the same item stays chosen: its source, and so the forecast, is unchanged
}

TimeSource TimeSourceCombo::source() const {
    const int i = currentData().toInt();
    if (i == kMachine && m_machine) {
        TimeSource s;
        s.machine = m_machine;
        return s;
    }
    return m_presets.at(std::size_t(std::max(0, i)));
}

void TimeSourceCombo::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        fill();
    QComboBox::changeEvent(event);
}

} // namespace zerolab
