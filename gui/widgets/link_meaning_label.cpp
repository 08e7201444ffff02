// The picker's link line (link_meaning_label.h).
#include "gui/widgets/link_meaning_label.h"

#include "gui/core/link_meaning.h"
#include "gui/widgets/time_source_combo.h"

#include <QCoreApplication>
#include <QEvent>

namespace zerolab {

LinkMeaningLabel::LinkMeaningLabel(TimeSourceCombo* combo, QWidget* parent)
    : QLabel(parent), m_combo(combo) {
    setObjectName(QStringLiteral("muted"));
    setWordWrap(true);
    connect(combo, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    refresh();
}

void LinkMeaningLabel::refresh() {
    const QString text = linkMeaning(m_combo->source());
    setText(text);
    setToolTip(QCoreApplication::translate(
        "LinkMeaningLabel",
        "A link preset's rate is one NIC's (one port, as sold), and a host has one NIC per "
        "GPU, as a DGX A100 or H100 has: the forecast's ring runs at the node's rate shared "
        "by its GPUs (docs/planner.md, \"What the link presets mean between hosts\")."));
    if (text.isEmpty())
        hide();
    else if (parentWidget()) // a widget without a parent would show as a window of its own
        show();
}

void LinkMeaningLabel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        refresh();
    QLabel::changeEvent(event);
}

} // namespace zerolab
