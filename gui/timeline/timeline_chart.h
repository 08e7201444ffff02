// The step timeline chart: one StepTimeline drawn with QCustomPlot, rows per rank
// (compute lane, comm lane, and a memory strip when a category changes inside the
// step), x = milliseconds since the step's start. Bars are coloured by kind
// (timeline_style.h), equal-seq collectives are joined across ranks, hovering names
// a span and outlines its collective on every rank. Wheel zooms time, drag pans,
// Shift+drag zooms to the dragged interval, double-click resets.
#pragma once

#include "gui/core/timeline_layout.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPRange;
class QLabel;
class QMenu;
class QStackedLayout;

namespace zerolab {

class TimelineLegend;
class TimelinePlottable;

// UI thread only. Replots are queued.
class TimelineChart : public QWidget {
    Q_OBJECT
public:
    explicit TimelineChart(QWidget* parent = nullptr);

    // Shows the timeline (a message instead when it has no span). Keeps a zoomed-in x
    // range when `keepZoom` and the user had zoomed; otherwise fits the whole step.
    void setTimeline(const StepTimeline& timeline, bool keepZoom = false);
    // A centred explanation in place of the chart ("No timeline recorded ...").
    void showMessage(const QString& title, const QString& body);
    bool showsMessage() const;
    QString messageText() const; // title and body, plain text

    const TimelineLayout& layout() const { return m_layout; }
    // The sentence on flat categories ("Preallocated buffers: flat through the step:
    // ..."), empty when no sampled category stays flat.
    QString memoryCaption() const { return m_flatCaption; }
    QStringList legendLabels() const;

    // Hit testing and geometry in the coordinates of plot(). Valid after a replot.
    int spanAt(const QPointF& pos) const;
    QPointF spanCenter(int span) const;
    // What hovering at `pos` shows (span or memory readout); empty over nothing.
    QString hoverTextAt(const QPointF& pos) const;
    QString hoverText() const { return m_hoverText; } // the last one shown
    // The spans outlined now (the hovered one and its linked collective).
    const std::vector<int>& highlighted() const { return m_highlighted; }

    // The time axis reaches at least `ms` (0: the step's own end): fitted and clamped to
    // the longer of the two, so that a shorter step drawn under a longer one (the forecast
    // under the measured step) is on the same scale. A chart not zoomed in is fitted again.
    void setAxisEndMs(double ms);
    // The end of the whole time axis, in ms: the step's end or the set one, the longer.
    double axisEndMs() const;
    // Visible time, in ms since the step's start.
    QCPRange xRange() const;
    void setXRange(double lowerMs, double upperMs);
    void resetZoom();
    bool zoomed() const;
    // PNG or PDF by suffix; false when writing failed.
    bool exportTo(const QString& path);
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;

private:
    // The axis title, captions, rows and legend in the current language (the zoom is
    // kept); a message this chart chose itself is shown again.
    void retranslate();
    void showNoSpans(long long step);
    void rebuild();
    void hover(const QPointF& pos, const QPoint& globalPos);
    void clampRange(const QCPRange& range);
    // Its entries at the top of the chart's context menu (chart_actions.h).
    void addOwnActions(QMenu& menu);

    QStackedLayout* m_stack;
    QLabel* m_message;
    QCustomPlot* m_plot;
    TimelinePlottable* m_spans; // owned by m_plot
    TimelineLegend* m_legend;
    QLabel* m_caption;
    TimelineLayout m_layout;
    QString m_flatCaption;
    QString m_hoverText;
    std::vector<int> m_highlighted;
    long long m_noSpansStep = -1; // the step whose timeline had no span, while shown
    double m_axisEndMs = 0;       // setAxisEndMs
};

} // namespace zerolab
