// The shared splitter set-up of gui/widgets/side_pane.h.
#include "gui/widgets/side_pane.h"

#include <QHBoxLayout>
#include <QSplitter>
#include <QWidget>

namespace zerolab {

namespace {
constexpr int kHandleWidth = 10;
constexpr int kViewMargin = 12;
} // namespace

QSplitter* makeSplitter(Qt::Orientation orientation) {
    auto* split = new QSplitter(orientation);
    split->setChildrenCollapsible(false);
    split->setHandleWidth(kHandleWidth);
    return split;
}

QSplitter* layOutWithSidePane(QWidget* view, QWidget* side, QWidget* main) {
    auto* layout = new QHBoxLayout(view);
    layout->setContentsMargins(kViewMargin, kViewMargin, kViewMargin, kViewMargin);
    QSplitter* split = makeSplitter(Qt::Horizontal);
    split->addWidget(side);
    split->addWidget(main);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    return split;
}

} // namespace zerolab
