// How a timeline span looks and reads: its colour (by kind; collectives by collective
// kind), the painting of one bar (a collective's queued part lighter, Wait hatched
// red), its short label inside the bar ("F3", "AG u4"), its tooltip, and the legend of
// the kinds a timeline holds. The chart, its legend and the tests share these.
#pragma once

#include "storage/timeline.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

class QPainter;
class QRectF;

namespace zerolab {

// A span's colour: Forward, Backward, Recompute, Optimizer... by kind; a Collective
// by its collective (the Run view's reduce-scatter and all-gather colours); a Wait is
// red (and painted hatched).
QColor spanColor(const TimelineSpan& span);
QString spanKindLabel(SpanKind kind);           // "Forward", "Wait (blocked on a collective)"
QString collectiveLabel(Collective collective); // "all-gather"
// Labels inside a bar, longest first: the chart draws the first that fits.
// ("F3"; "B3"; "R3"; "AG u4", "u4"; "AR"; "optimizer", "opt"; "wait").
QStringList spanBarLabels(const TimelineSpan& span);
// Rich text naming rank, kind, unit, micro-batch, collective, bytes, start, duration
// (and, for a collective, its queued time).
QString spanTooltip(const TimelineSpan& span);
// "0.42 ms", "12.3 ms": microseconds shown in milliseconds, three significant digits.
QString formatMicros(double us);

// Which part of a span a rectangle shows.
enum class SpanPart { Whole, Queued };
// Paints one bar into `rect` (device pixels). `highlighted`: a dark outline (the
// hovered collective and everything linked to it). Labels are painted by the caller.
void paintSpan(QPainter& painter, const QRectF& rect, const TimelineSpan& span, SpanPart part,
               bool highlighted);

// One legend swatch: a kind, or a collective (kind Collective), or the queued style.
struct TimelineLegendEntry {
    TimelineSpan sample; // kind and collective select the look
    SpanPart part = SpanPart::Whole;
    QString label;
    QString hint; // tooltip
};
// The entries for the kinds and collectives present in `spans`, in a fixed order.
std::vector<TimelineLegendEntry> timelineLegendEntries(const std::vector<TimelineSpan>& spans);

// A row of swatches and labels; UI thread only.
class TimelineLegend : public QWidget {
    Q_OBJECT
public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    void setEntries(const std::vector<TimelineLegendEntry>& entries);
    QStringList labels() const;

private:
    std::vector<TimelineLegendEntry> m_entries;
};

} // namespace zerolab
