// A time-series plot over QCustomPlot: lines or stacked areas against step, wall
// time or tokens, with wheel zoom, drag pan, a hover readout of every series at
// the nearest point, and PNG/PDF export from the context menu.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

class QCPGraph;
class QCustomPlot;
class QCPRange;
class QMenu;
class QMouseEvent;

namespace zerolab {

// One series; x and y have the same length, x ascending.
struct PlotSeries {
    QString name;
    QColor color;
    QVector<double> x;
    QVector<double> y;
    bool dashed = false;
};

// A vertical marker line (a run segment's first step) with a short label.
struct PlotMarker {
    double x = 0;
    QString label;
};

// UI thread only. Replots are queued (coalesced into the next event-loop pass).
class TimeSeriesPlot : public QWidget {
    Q_OBJECT
public:
    explicit TimeSeriesPlot(QWidget* parent = nullptr);

    void setAxisLabels(const QString& x, const QString& y);
    // Replaces every series by lines.
    void setLines(const QVector<PlotSeries>& series);
    // Replaces every series by areas stacked bottom-up in the given order; the
    // hover readout shows each layer's own value, not the running sum.
    void setStacked(const QVector<PlotSeries>& layers);
    // Fit both axes to the data (also bound to double-click).
    void resetZoom();
    void setLogY(bool on);
    // PNG or PDF by the file's suffix; false when writing failed.
    bool exportTo(const QString& path);
    // "Nothing to show yet" text drawn over an empty plot.
    void setEmptyText(const QString& text);
    // Replaces the marker lines (kept across setLines / setStacked).
    void setMarkers(const QVector<PlotMarker>& markers);
    int markerCount() const { return m_markers.size(); }
    // Lines drawn over the series and never stacked with them (a forecast over the
    // measured breakdown); kept across setLines / setStacked.
    void setOverlay(const QVector<PlotSeries>& lines);
    const QVector<PlotSeries>& overlay() const { return m_overlay; }

    QCustomPlot* plot() const { return m_plot; }
    int seriesCount() const { return m_series.size(); }

private:
    void showReadout(QMouseEvent* event);
    // Its entries at the top of the chart's context menu (chart_actions.h).
    void addOwnActions(QMenu& menu);
    void updateEmptyText();
    void resampleStacked(const QCPRange& range);
    void drawOverlay();

    QCustomPlot* m_plot;
    QVector<PlotSeries> m_series; // as given (stacked: the un-summed layers)
    QString m_emptyText;
    QVector<PlotMarker> m_markers;
    QVector<PlotSeries> m_overlay;
    QVector<QCPGraph*> m_overlayGraphs;
    bool m_stacked = false;                 // stacked areas always start the y axis at 0
    QVector<QVector<double>> m_stackedSums; // running sums per layer, full resolution
};

} // namespace zerolab
