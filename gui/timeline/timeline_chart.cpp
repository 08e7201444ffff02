// The timeline chart. One custom QCustomPlot plottable paints every row band, link,
// bar, label and memory strip in a single pass (a step holds hundreds of spans per
// rank; one item per span would make each replot walk them all as layerables). The
// value axis lists the rows top-down; only the time axis zooms and pans.
#include "gui/timeline/timeline_chart.h"

#include "gui/core/units.h"
#include "gui/timeline/timeline_style.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/font_zoom.h"
#include "gui/widgets/style.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QStackedLayout>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {

constexpr double kBarHalf = 0.36;   // half a bar's height, in rows
constexpr double kStripHalf = 0.42; // half a memory strip's height
constexpr double kHoverPixels = 3;  // a hover this close to a thin bar still finds it
constexpr double kMinRangeMs = 0.005;

const QColor kBandColor(0x0F, 0x17, 0x2A, 9);
const QColor kLabelDark(0x1F, 0x29, 0x37);

QColor labelColorOn(const QColor& fill) {
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance < 0.33 ? kWhite : kLabelDark;
}

QString rowLabel(const TimelineRow& row) {
    switch (row.kind) {
    case TimelineRowKind::Compute:
        return QCoreApplication::translate("zerolab::TimelineChart", "rank %1 compute")
            .arg(row.rank);
    case TimelineRowKind::Comm:
        return QCoreApplication::translate("zerolab::TimelineChart", "rank %1 comm").arg(row.rank);
    case TimelineRowKind::Memory:
        return QCoreApplication::translate("zerolab::TimelineChart", "rank %1 memory")
            .arg(row.rank);
    }
    return {};
}

} // namespace

// Paints a TimelineLayout; keys are milliseconds, values are row coordinates.
class TimelinePlottable : public QCPAbstractPlottable {
public:
    TimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
        : QCPAbstractPlottable(keyAxis, valueAxis) {
        setSelectable(QCP::stNone);
    }

    void setLayout(const TimelineLayout* layout) { m_layout = layout; }
    void setHighlighted(const std::vector<int>* highlighted) { m_highlighted = highlighted; }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = m_layout && !m_layout->empty();
        return found ? QCPRange(0, m_layout->endUs() / 1000) : QCPRange();
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = m_layout && !m_layout->rows().empty();
        return found ? QCPRange(-0.5, m_layout->rows().back().y + 0.5) : QCPRange();
    }

    // The bar of a span in pixels: the running part, or the queued part before it.
    QRectF barRect(int i, SpanPart part) const {
        const TimelineSpan& s = m_layout->spans()[std::size_t(i)];
        const double y = m_layout->rows()[std::size_t(m_layout->spanRow(i))].y;
        const double half = part == SpanPart::Queued ? kBarHalf * 0.55 : kBarHalf;
        const double x0 =
            keyAxis()->coordToPixel((part == SpanPart::Queued ? s.issue_us : s.start_us) / 1000);
        const double x1 =
            keyAxis()->coordToPixel((part == SpanPart::Queued ? s.start_us : s.end_us) / 1000);
        const double y0 = valueAxis()->coordToPixel(y - half);
        const double y1 = valueAxis()->coordToPixel(y + half);
        QRectF r = QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized();
        if (r.width() < 1) // a span shorter than a pixel still shows
            r.setWidth(1);
        return r;
    }

protected:
    void draw(QCPPainter* painter) override {
        if (!m_layout || m_layout->empty())
            return;
        const QRect clip = clipRect();
        drawBands(painter, clip);
        drawLinks(painter, false);
        drawSpans(painter, clip);
        drawMemory(painter, clip);
        drawLinks(painter, true);
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    bool isHighlighted(int i) const {
        return m_highlighted &&
               std::find(m_highlighted->begin(), m_highlighted->end(), i) != m_highlighted->end();
    }

    // Every other rank on a faint band, so a rank's lanes read as one group.
    void drawBands(QCPPainter* painter, const QRect& clip) const {
        painter->setPen(Qt::NoPen);
        painter->setBrush(kBandColor);
        const auto& rows = m_layout->rows();
        for (int r = 0; r < m_layout->world(); r += 2) {
            double top = 1e300, bottom = -1e300;
            for (const auto& row : rows)
                if (row.rank == r) {
                    top = std::min(top, row.y - 0.5);
                    bottom = std::max(bottom, row.y + 0.5);
                }
            const double y0 = valueAxis()->coordToPixel(top);
            const double y1 = valueAxis()->coordToPixel(bottom);
            painter->drawRect(QRectF(QPointF(clip.left(), y0), QPointF(clip.right(), y1)));
        }
    }

    // A collective's start on one rank joined to its start on the next: a leaning line
    // is a rank that joined late. Faint under the bars; the hovered collective's links
    // dark, over them.
    void drawLinks(QCPPainter* painter, bool hovered) const {
        painter->setAntialiasing(true);
        for (const auto& [a, b] : m_layout->links()) {
            const bool hot = isHighlighted(a) && isHighlighted(b);
            if (hot != hovered)
                continue;
            const QRectF ra = barRect(a, SpanPart::Whole), rb = barRect(b, SpanPart::Whole);
            QColor c = spanColor(m_layout->spans()[std::size_t(a)]);
            c.setAlpha(110);
            painter->setPen(hot ? QPen(kTextDarkest, 1.6) : QPen(c, 1));
            const bool down = ra.center().y() < rb.center().y();
            painter->drawLine(QPointF(ra.left(), down ? ra.bottom() : ra.top()),
                              QPointF(rb.left(), down ? rb.top() : rb.bottom()));
        }
        painter->setAntialiasing(false);
    }

    // Queued parts first: a running bar is never covered by the pale queue of the
    // collective issued behind it. Hovered spans last, so no neighbour hides their
    // outline.
    void drawSpans(QCPPainter* painter, const QRect& clip) const {
        const auto& spans = m_layout->spans();
        std::vector<int> order;
        order.reserve(spans.size());
        for (int i = 0; i < int(spans.size()); ++i)
            if (!isHighlighted(i))
                order.push_back(i);
        if (m_highlighted)
            order.insert(order.end(), m_highlighted->begin(), m_highlighted->end());
        for (int i : order) {
            const TimelineSpan& s = spans[std::size_t(i)];
            if (s.kind != SpanKind::Collective || s.start_us <= s.issue_us)
                continue;
            const QRectF q = barRect(i, SpanPart::Queued);
            if (q.right() >= clip.left() && q.left() <= clip.right())
                paintSpan(*painter, q, s, SpanPart::Queued, isHighlighted(i));
        }
        QFont font = painter->font();
        font.setPointSizeF(7.5 * fontZoomFactor());
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        for (int i : order) {
            const TimelineSpan& s = spans[std::size_t(i)];
            const QRectF r = barRect(i, SpanPart::Whole);
            if (r.right() < clip.left() || r.left() > clip.right())
                continue;
            paintSpan(*painter, r, s, SpanPart::Whole, isHighlighted(i));
            // The longest label that fits, centred in the visible part of the bar.
            const QRectF visible = r.intersected(QRectF(clip));
            QString text;
            for (const QString& candidate : spanBarLabels(s))
                if (visible.width() >= metrics.horizontalAdvance(candidate) + 2) {
                    text = candidate;
                    break;
                }
            if (text.isEmpty())
                continue;
            painter->setPen(s.kind == SpanKind::Wait ? kWaitTextColor : labelColorOn(spanColor(s)));
            if (s.kind == SpanKind::Wait) {
                // On the hatching, the label sits on a white chip.
                const QSizeF size(metrics.horizontalAdvance(text) + 4, metrics.height());
                QRectF chip(QPointF(0, 0), size);
                chip.moveCenter(visible.center());
                painter->fillRect(chip, withAlpha(kWhite, 225));
            }
            painter->drawText(visible, Qt::AlignCenter, text);
        }
    }

    // Each rank's changing categories as step lines over a light fill, on one scale
    // (0 to the largest sample of any rank), so ranks compare by eye.
    void drawMemory(QCPPainter* painter, const QRect& clip) const {
        if (!m_layout->hasMemoryStrip() || m_layout->memoryMaxBytes() <= 0)
            return;
        const double top = double(m_layout->memoryMaxBytes());
        const double endMs = m_layout->endUs() / 1000;
        painter->setAntialiasing(true);
        for (const auto& series : m_layout->memorySeries()) {
            const int row = m_layout->rowIndex(series.rank, TimelineRowKind::Memory);
            const double y = m_layout->rows()[std::size_t(row)].y;
            const double base = valueAxis()->coordToPixel(y + kStripHalf);
            const double full = valueAxis()->coordToPixel(y - kStripHalf);
            const auto py = [&](long long bytes) { return base + (full - base) * bytes / top; };
            QPolygonF line;
            for (std::size_t k = 0; k < series.points.size(); ++k) {
                const double x = keyAxis()->coordToPixel(series.points[k].first / 1000);
                const double next = keyAxis()->coordToPixel(
                    k + 1 < series.points.size() ? series.points[k + 1].first / 1000 : endMs);
                line << QPointF(x, py(series.points[k].second))
                     << QPointF(next, py(series.points[k].second));
            }
            if (line.isEmpty())
                continue;
            const QColor color = memCategoryColor(series.category);
            QPolygonF area = line;
            area << QPointF(line.back().x(), base) << QPointF(line.front().x(), base);
            QColor fill = color;
            fill.setAlpha(60);
            painter->setPen(Qt::NoPen);
            painter->setBrush(fill);
            painter->drawPolygon(area);
            painter->setPen(QPen(color.darker(125), 1.5));
            painter->setBrush(Qt::NoBrush);
            painter->drawPolyline(line);
        }
        painter->setAntialiasing(false);
        // The strip's scale, once per rank, at its top left.
        QFont font = painter->font();
        font.setPointSizeF(7.5 * fontZoomFactor());
        painter->setFont(font);
        painter->setPen(kTextMuted);
        const QFontMetricsF metrics(font);
        const QString scale = QStringLiteral("0 – %1").arg(formatBytes(top));
        for (const auto& row : m_layout->rows()) {
            if (row.kind != TimelineRowKind::Memory)
                continue;
            // On a white chip: the series may pass right under it.
            const double y = valueAxis()->coordToPixel(row.y - kStripHalf);
            const QRectF chip(clip.left() + 2, y, metrics.horizontalAdvance(scale) + 6,
                              metrics.height());
            painter->fillRect(chip, withAlpha(kWhite, 210));
            painter->drawText(chip, Qt::AlignCenter, scale);
        }
    }

    const TimelineLayout* m_layout = nullptr;
    const std::vector<int>* m_highlighted = nullptr;
};

TimelineChart::TimelineChart(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedLayout), m_message(new QLabel), m_plot(new QCustomPlot),
      m_legend(new TimelineLegend), m_caption(new QLabel) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(m_stack);

    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setMinimumHeight(160);
    m_stack->addWidget(m_message);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_legend);
    layout->addWidget(m_plot, 1);
    m_caption->setObjectName(QStringLiteral("muted"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    layout->addWidget(m_caption);
    m_stack->addWidget(content);

    stylePlot(m_plot);
    m_plot->xAxis->grid()->setVisible(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->setMouseTracking(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDragAxes(m_plot->xAxis, nullptr);
    m_plot->axisRect()->setRangeZoomAxes(m_plot->xAxis, nullptr);
    m_plot->selectionRect()->setPen(QPen(kAccent, 1, Qt::DashLine));
    m_plot->selectionRect()->setBrush(withAlpha(kAccent, 40));
    m_spans = new TimelinePlottable(m_plot->xAxis, m_plot->yAxis);
    m_spans->setLayout(&m_layout);
    m_spans->setHighlighted(&m_highlighted);

    // Shift+drag zooms to the dragged interval; a plain drag pans. QCustomPlot reads
    // the mode after emitting mousePress.
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        m_plot->setSelectionRectMode((e->modifiers() & Qt::ShiftModifier) ? QCP::srmZoom
                                                                          : QCP::srmNone);
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons() == Qt::NoButton)
            hover(e->position(), e->globalPosition().toPoint());
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    attachChartActions(
        m_plot, [this](QMenu& menu) { addOwnActions(menu); }, ChartDoubleClick::Keep);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TimelineChart::clampRange);
    showMessage(tr("No timeline yet"), QString());
    retranslate();
}

void TimelineChart::retranslate() {
    m_plot->xAxis->setLabel(tr("Time since the step's start (ms)"));
    if (m_noSpansStep >= 0)
        showNoSpans(m_noSpansStep);
    else if (!showsMessage())
        rebuild();
}

void TimelineChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void TimelineChart::showNoSpans(long long step) {
    showMessage(tr("No spans recorded in step %1").arg(step),
                tr("The store holds this step's timeline, but no rank recorded an interval "
                   "in it."));
    m_noSpansStep = step;
}

void TimelineChart::showMessage(const QString& title, const QString& body) {
    m_message->setText(
        QStringLiteral("<p style='font-size:13pt; font-weight:600; "
                       "color:%1'>%2</p><p style='color:%3'>%4</p>")
            .arg(kTextStrong.name(), title.toHtmlEscaped(), kTextMuted.name(), body));
    m_message->setToolTip({});
    m_noSpansStep = -1;
    m_layout = TimelineLayout();
    m_highlighted.clear();
    m_hoverText.clear();
    m_flatCaption.clear();
    m_stack->setCurrentIndex(0);
}

bool TimelineChart::showsMessage() const {
    return m_stack->currentIndex() == 0;
}

QString TimelineChart::messageText() const {
    QTextDocument doc;
    doc.setHtml(m_message->text());
    return doc.toPlainText();
}

QStringList TimelineChart::legendLabels() const {
    return m_legend->labels();
}

void TimelineChart::setTimeline(const StepTimeline& timeline, bool keepZoom) {
    const bool keep = keepZoom && zoomed() && !showsMessage();
    const QCPRange range = m_plot->xAxis->range();
    if (timeline.spans.empty()) {
        showNoSpans(timeline.step);
        return;
    }
    m_layout = TimelineLayout(timeline);
    m_noSpansStep = -1;
    m_highlighted.clear();
    m_hoverText.clear();
    rebuild();
    m_stack->setCurrentIndex(1);
    if (keep)
        setXRange(range.lower, range.upper);
    else
        resetZoom();
}

void TimelineChart::rebuild() {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (const auto& row : m_layout.rows())
        ticker->addTick(row.y, rowLabel(row));
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.5, m_layout.rows().empty() ? 1 : m_layout.rows().back().y + 0.5);
    // Rows of about 26 px, whatever the world size; the Run view's card grows with it.
    const int rows = int(m_layout.rows().size());
    m_plot->setMinimumHeight(60 + 26 * rows);
    m_legend->setEntries(timelineLegendEntries(m_layout.spans()));

    QStringList caption;
    if (m_layout.hasMemoryStrip()) {
        QStringList names;
        for (MemCategory c : m_layout.changingCategories())
            names << QStringLiteral("<span style='color:%1'>&#9632;</span> %2")
                         .arg(memCategoryColor(c).name(), memCategoryLabel(c));
        caption << tr("<b>Memory strips</b>: what changes inside the step, sampled at phase "
                      "boundaries, 0 – %1 on every rank: %2.")
                       .arg(formatBytes(double(m_layout.memoryMaxBytes())),
                            names.join(QStringLiteral(", ")));
    }
    QStringList flat;
    for (const auto& f : m_layout.flatCategories())
        flat << (f.minBytes == f.maxBytes
                     ? QStringLiteral("%1 %2").arg(memCategoryLabel(f.category),
                                                   formatBytes(double(f.maxBytes)))
                     : QStringLiteral("%1 %2 – %3")
                           .arg(memCategoryLabel(f.category), formatBytes(double(f.minBytes)),
                                formatBytes(double(f.maxBytes))));
    m_flatCaption = flat.isEmpty() ? QString()
                                   : tr("Preallocated buffers: flat through the step (%1).")
                                         .arg(flat.join(QStringLiteral(", ")));
    if (!m_flatCaption.isEmpty())
        caption << m_flatCaption.toHtmlEscaped();
    if (!m_layout.hasMemoryStrip() && flat.isEmpty())
        caption << tr("No memory samples in this step.");
    caption << tr("Lines join one collective on every rank (at its start: a leaning line is "
                  "a rank that joined late). Wheel: zoom · drag: pan · Shift+drag: zoom to "
                  "interval · double-click: whole step.");
    m_caption->setText(caption.join(QStringLiteral("<br>")));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineChart::resetZoom() {
    if (m_layout.empty())
        return;
    m_plot->xAxis->setRange(0, std::max(axisEndMs() * 1.01, kMinRangeMs));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool TimelineChart::zoomed() const {
    if (m_layout.empty())
        return false;
    return m_plot->xAxis->range().size() < axisEndMs() * 1.005;
}

void TimelineChart::setAxisEndMs(double ms) {
    const bool wasZoomed = zoomed();
    m_axisEndMs = std::max(0.0, ms);
    if (!wasZoomed)
        resetZoom();
}

double TimelineChart::axisEndMs() const {
    return std::max(m_layout.endUs() / 1000, m_axisEndMs);
}

QCPRange TimelineChart::xRange() const {
    return m_plot->xAxis->range();
}

void TimelineChart::setXRange(double lowerMs, double upperMs) {
    m_plot->xAxis->setRange(lowerMs, upperMs);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// Time stays within the axis (the step plus a little air) and never narrower than 5 us.
void TimelineChart::clampRange(const QCPRange& range) {
    if (m_layout.empty())
        return;
    const double end = axisEndMs();
    const double lo = -0.01 * end, hi = end * 1.01;
    QCPRange r = range;
    if (r.size() < kMinRangeMs)
        r = QCPRange(r.center() - kMinRangeMs / 2, r.center() + kMinRangeMs / 2);
    if (r.size() > hi - lo)
        r = QCPRange(lo, hi);
    if (r.lower < lo)
        r = QCPRange(lo, lo + r.size());
    if (r.upper > hi)
        r = QCPRange(hi - r.size(), hi);
    if (r.lower != range.lower || r.upper != range.upper)
        m_plot->xAxis->setRange(r);
}

int TimelineChart::spanAt(const QPointF& pos) const {
    if (m_layout.empty() || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return -1;
    const int row = m_layout.rowAt(m_plot->yAxis->pixelToCoord(pos.y()));
    if (row < 0 || m_layout.rows()[std::size_t(row)].kind == TimelineRowKind::Memory)
        return -1;
    const double y = m_layout.rows()[std::size_t(row)].y;
    if (std::fabs(m_plot->yAxis->pixelToCoord(pos.y()) - y) > kBarHalf + 0.05)
        return -1;
    const double us = m_plot->xAxis->pixelToCoord(pos.x()) * 1000;
    const double tol = std::fabs(m_plot->xAxis->pixelToCoord(pos.x() + kHoverPixels) * 1000 - us);
    return m_layout.spanAt(row, us, tol);
}

QPointF TimelineChart::spanCenter(int span) const {
    if (span < 0 || span >= int(m_layout.spans().size()))
        return {};
    return m_spans->barRect(span, SpanPart::Whole).center();
}

QString TimelineChart::hoverTextAt(const QPointF& pos) const {
    const int span = spanAt(pos);
    if (span >= 0)
        return spanTooltip(m_layout.spans()[std::size_t(span)]);
    if (m_layout.empty() || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const int row = m_layout.rowAt(m_plot->yAxis->pixelToCoord(pos.y()));
    if (row < 0 || m_layout.rows()[std::size_t(row)].kind != TimelineRowKind::Memory)
        return {};
    const int rank = m_layout.rows()[std::size_t(row)].rank;
    const double us = m_plot->xAxis->pixelToCoord(pos.x()) * 1000;
    const auto values = m_layout.memoryAt(rank, us);
    if (values.empty())
        return {};
    QString html = tr("<b>rank %1 memory at %2</b><table>").arg(rank).arg(formatMicros(us));
    for (const auto& [category, bytes] : values)
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                               "<td align='right'>&nbsp;%3</td></tr>")
                    .arg(memCategoryColor(category).name(), memCategoryLabel(category),
                         formatBytes(double(bytes)));
    return html + QStringLiteral("</table>");
}

void TimelineChart::hover(const QPointF& pos, const QPoint& globalPos) {
    const int span = spanAt(pos);
    std::vector<int> highlighted;
    if (span >= 0) {
        highlighted = m_layout.linked(span);
        if (highlighted.empty())
            highlighted.push_back(span);
    }
    if (highlighted != m_highlighted) {
        m_highlighted = std::move(highlighted);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_hoverText = hoverTextAt(pos);
    if (m_hoverText.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, m_hoverText, m_plot);
}

bool TimelineChart::exportTo(const QString& path) {
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return m_plot->savePdf(path, 0, 0, QCP::epNoCosmetic);
    return m_plot->savePng(path, 0, 0, 2.0);
}

void TimelineChart::addOwnActions(QMenu& menu) {
    menu.addAction(tr("Whole step"), this, &TimelineChart::resetZoom);
    menu.addAction(tr("Export as %1…").arg(QStringLiteral("PDF")), this, [this] {
        QString path = saveFileName(this, tr("Export timeline"), {}, QStringLiteral("*.pdf"));
        if (path.isEmpty())
            return;
        if (!path.endsWith(QStringLiteral(".pdf")))
            path += QStringLiteral(".pdf");
        exportTo(path);
    });
}

} // namespace zerolab
