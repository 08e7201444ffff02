// The application's look: a light Fusion palette with one accent colour, a style
// sheet for tabs, cards and forms, and the axis styling every QCustomPlot shares.
#pragma once

#include "gui/core/palette.h"

class QApplication;
class QCustomPlot;
class QWidget;

namespace zerolab {

// Palette, font and style sheet; call once after QApplication is constructed.
void applyAppStyle(QApplication& app);
// Axis pens, fonts, grid and margins for a plot; call right after creating it.
void stylePlot(QCustomPlot* plot);
// Moves the legend out of the axis rect into a row of its own above it, items side
// by side and flush right, so a legend never covers data; as many columns as the plot's
// width holds (at most six), wrapping onto more rows, never cutting a name. Call once,
// after stylePlot.
void placeLegendAbove(QCustomPlot* plot);
// Re-applies the style sheet after a widget's objectName or a property changed.
void repolish(QWidget* w);
// A white rounded card (QFrame) with 12 px padding; the caller fills its layout.
QWidget* makeCard(QWidget* content, QWidget* parent = nullptr);

} // namespace zerolab
