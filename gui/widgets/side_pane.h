// The tab layout Setup, Learn and the Lab share: a side pane (the form, the controls, the
// lessons) beside the main pane in a splitter, and the splitter every view's panes use.
#pragma once

#include <Qt>

class QSplitter;
class QWidget;

namespace zerolab {

// A splitter whose panes never collapse, with a 10 px handle.
QSplitter* makeSplitter(Qt::Orientation orientation);

// `side` beside `main` in a horizontal splitter that fills `view` with 12 px margins;
// `main` takes the stretch. Returns the splitter (for setSizes).
QSplitter* layOutWithSidePane(QWidget* view, QWidget* side, QWidget* main);

} // namespace zerolab
