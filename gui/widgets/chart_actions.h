// What every chart offers, in one place: "Show full screen", "Copy chart", "Save chart as
// PNG…" and "Save chart as SVG…" on its context menu (after the chart's own actions), a
// full-screen figure (F11 or double-click; Esc leaves) and the font zoom (font_zoom.h).
// A chart takes part with one line after stylePlot(): attachChartActions(m_plot);
#pragma once

#include <QString>

#include <functional>
#include <memory>

class QCustomPlot;
class QMenu;

namespace zerolab {

// The chart's own entries, put at the top of its context menu (reset zoom, PDF export).
using ChartMenuExtras = std::function<void(QMenu& menu)>;

enum class ChartDoubleClick {
    FullScreen, // a double-click shows the chart full screen
    Keep,       // the chart uses double-click itself (reset zoom, open a trial)
};

// Gives `plot` the context menu, the full-screen figure and the font zoom.
void attachChartActions(QCustomPlot* plot, ChartMenuExtras extras = {},
                        ChartDoubleClick doubleClick = ChartDoubleClick::FullScreen);

// The context menu attachChartActions shows (tests read its actions by objectName:
// chartFullScreen, chartCopy, chartSavePng, chartSaveSvg); null for a plot never attached.
std::unique_ptr<QMenu> chartContextMenu(QCustomPlot* plot);

// The chart as an image on the clipboard, at twice its pixel size.
void copyChart(QCustomPlot* plot);
// The chart at twice its pixel size as PNG, or as SVG (vector, its size in pixels).
// False with `error` set (naming the file) when the file cannot be written.
bool saveChartPng(QCustomPlot* plot, const QString& path, QString* error = nullptr);
bool saveChartSvg(QCustomPlot* plot, const QString& path, QString* error = nullptr);

// Moves `plot` into a full-screen window of its own, live and interactive; Esc, F11 or
// closing the window puts it back where it was. The chart shown full screen, or null.
void showChartFullScreen(QCustomPlot* plot);
void leaveChartFullScreen();
QCustomPlot* fullScreenChart();
// The chart F11 means: the one under the mouse, else the one the mouse was last over.
QCustomPlot* chartForShortcut();

} // namespace zerolab
