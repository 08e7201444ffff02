// A card headed by a title and a muted hint with a body under them (the Run view's cards,
// and the timeline shots that render one as the view does). The caller names the labels.
#pragma once

class QFrame;
class QLabel;
class QWidget;

namespace zerolab {

struct TitledCard {
    QFrame* frame;
    QLabel* title; // objectName "cardTitle"
    QLabel* hint;  // objectName "muted"
};

// `body` takes the space the card has beneath its header.
TitledCard makeTitledCard(QWidget* body);

} // namespace zerolab
