// The application's look: a light Fusion palette with one accent colour, a style
// sheet for tabs, cards and forms, and the axis styling every QCustomPlot shares.
#pragma once

#include <QColor>

class QApplication;
class QCustomPlot;
class QWidget;

namespace zerolab {

inline const QColor kAccent{0x2F, 0x6D, 0xB5};
inline const QColor kTextMuted{0x6B, 0x72, 0x80};
inline const QColor kGridColor{0xE5, 0xE7, 0xEB};
inline const QColor kErrorColor{0xC2, 0x41, 0x0C};
inline const QColor kOkColor{0x15, 0x80, 0x3D};

// Palette, font and style sheet; call once after QApplication is constructed.
void applyAppStyle(QApplication& app);
// Axis pens, fonts, grid and margins for a plot; call right after creating it.
void stylePlot(QCustomPlot* plot);
// Moves the legend out of the axis rect into a row of its own above it, items side
// by side and flush right, so a legend never covers data. Call once, after stylePlot.
void placeLegendAbove(QCustomPlot* plot);
// Re-applies the style sheet after a widget's objectName or a property changed.
void repolish(QWidget* w);
// A white rounded card (QFrame) with 12 px padding; the caller fills its layout.
QWidget* makeCard(QWidget* content, QWidget* parent = nullptr);

} // namespace zerolab
