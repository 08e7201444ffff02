// The line next to a step-time profile picker (TimeSourceCombo) that says what the chosen
// cluster preset's link between hosts means: per GPU, NICs per node, per node
// (gui/core/link_meaning.h). Setup, Tune and Learn each place one by their picker.
#pragma once

#include <QLabel>

namespace zerolab {

class TimeSourceCombo;

// UI thread only. Follows the combo's choice, its GPUs a host and the language; hidden
// while this machine's profile is chosen (nothing to say: its links were measured).
class LinkMeaningLabel : public QLabel {
    Q_OBJECT
public:
    explicit LinkMeaningLabel(TimeSourceCombo* combo, QWidget* parent = nullptr);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    TimeSourceCombo* m_combo;
};

} // namespace zerolab
