// makeTitledCard: the frame, the header row (title, then the hint wrapping in the rest) and
// the body.
#include "gui/widgets/titled_card.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace zerolab {

TitledCard makeTitledCard(QWidget* body) {
    auto* frame = new QFrame;
    frame->setProperty("card", true);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(4);
    auto* header = new QHBoxLayout;
    auto* title = new QLabel;
    title->setObjectName(QStringLiteral("cardTitle"));
    header->addWidget(title);
    auto* hint = new QLabel;
    hint->setObjectName(QStringLiteral("muted"));
    // A hint may grow long (the Run view's forecast note): it wraps in the space the title
    // leaves, and never widens the card.
    hint->setWordWrap(true);
    hint->setMinimumWidth(0);
    header->addWidget(hint, 1);
    layout->addLayout(header);
    layout->addWidget(body, 1);
    return {frame, title, hint};
}

} // namespace zerolab
