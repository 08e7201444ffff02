// Colours, bar painting, labels and tooltips of timeline spans. The palette keeps the
// Run view's step-time colours for forward, backward, optimizer and exposed comm (Wait)
// and its reduce-scatter orange; the collectives that share a lane differ in lightness
// as well as hue (orange, dark green, purple, brown) so they stay apart for colour-blind
// readers, and every bar wide enough carries its label.
#include "gui/timeline/timeline_style.h"

#include "gui/core/units.h"
#include "gui/widgets/flow_layout.h"
#include "runtime/planner/planner_units.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

#include <array>

namespace zerolab {

namespace {

// Indexed by SpanKind; Collective's own entry is unused (collectives go by kind).
constexpr std::array<const char*, kSpanKindCount> kKindColors = {"#4C78A8", "#72B7B2", "#9D755D",
                                                                 "#EECA3B", "#BAB0AC", "#79706E",
                                                                 "#B279A2", "#E45756", "#CBD0D8"};
constexpr std::array<const char*, kSpanKindCount> kKindLabels = {
    QT_TRANSLATE_NOOP("Timeline", "Forward"),
    QT_TRANSLATE_NOOP("Timeline", "Backward"),
    QT_TRANSLATE_NOOP("Timeline", "Recompute"),
    QT_TRANSLATE_NOOP("Timeline", "Optimizer"),
    QT_TRANSLATE_NOOP("Timeline", "Data"),
    QT_TRANSLATE_NOOP("Timeline", "Checkpoint"),
    QT_TRANSLATE_NOOP("Timeline", "Collective"),
    QT_TRANSLATE_NOOP("Timeline", "Wait"),
    QT_TRANSLATE_NOOP("Timeline", "Control all-reduce")};
constexpr std::array<const char*, kSpanKindCount> kKindHints = {
    QT_TRANSLATE_NOOP("Timeline", "The forward of one gather unit for one micro-batch."),
    QT_TRANSLATE_NOOP("Timeline", "The backward of one gather unit (recompute excluded)."),
    QT_TRANSLATE_NOOP("Timeline",
                      "The forward recomputed for one unit's backward (model.recompute)."),
    QT_TRANSLATE_NOOP("Timeline", "The optimizer step on this rank's partition."),
    QT_TRANSLATE_NOOP("Timeline", "Loading the next micro-batch."),
    QT_TRANSLATE_NOOP("Timeline", "Writing a checkpoint."),
    QT_TRANSLATE_NOOP("Timeline", "A collective in flight."),
    QT_TRANSLATE_NOOP(
        "Timeline",
        "The compute thread blocked on a collective: exposed communication, the time overlap "
        "did not hide. Hover it to see which collective."),
    QT_TRANSLATE_NOOP("Timeline",
                      "The per-step control all-reduce (stop, pause and commands agreement).")};

// Indexed by Collective.
constexpr std::array<const char*, kCollectiveCount> kCollectiveColors = {"#B279A2", "#F58518",
                                                                         "#2F8F4E", "#9D755D"};
constexpr std::array<const char*, kCollectiveCount> kCollectiveLabels = {
    QT_TRANSLATE_NOOP("Timeline", "all-reduce"), QT_TRANSLATE_NOOP("Timeline", "reduce-scatter"),
    QT_TRANSLATE_NOOP("Timeline", "all-gather"), QT_TRANSLATE_NOOP("Timeline", "broadcast")};
constexpr std::array<const char*, kCollectiveCount> kCollectiveShort = {"AR", "RS", "AG", "BC"};
constexpr std::array<const char*, kCollectiveCount> kCollectiveHints = {
    QT_TRANSLATE_NOOP(
        "Timeline",
        "Gradients summed over all ranks (stages 0-1), or the one-float grad-norm reduction."),
    QT_TRANSLATE_NOOP("Timeline",
                      "Gradients summed into the owning rank's shard (stages 2-3, or stage 1 with "
                      "reduce_scatter)."),
    QT_TRANSLATE_NOOP(
        "Timeline",
        "Parameter shards gathered: ZeRO-3 before each unit's forward and backward, stages 1-2 "
        "after the optimizer."),
    QT_TRANSLATE_NOOP("Timeline",
                      "Parameter shards sent by their owner (allgather_partitions: false).")};

const QColor kWaitFill(0xFB, 0xD5, 0xD5);
const QColor kWaitHatch(0xC5, 0x30, 0x30);
const QColor kHighlight(0x11, 0x18, 0x27);

std::size_t idx(SpanKind k) {
    return static_cast<std::size_t>(k);
}
std::size_t idx(Collective c) {
    return static_cast<std::size_t>(c);
}

QColor blendWithWhite(const QColor& c, double keep) {
    return QColor::fromRgbF(float(c.redF() * keep + (1 - keep)),
                            float(c.greenF() * keep + (1 - keep)),
                            float(c.blueF() * keep + (1 - keep)));
}

QPixmap swatch(const TimelineLegendEntry& e, qreal dpr) {
    QPixmap pm(QSize(18, 12) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    const QRectF r(0.5, 0.5, 17, 11);
    if (e.part == SpanPart::Queued) {
        // Pale on white: an outline keeps the swatch visible.
        const QRectF q = r.adjusted(0, 2.5, 0, -2.5);
        paintSpan(p, q, e.sample, e.part, false);
        p.setPen(QPen(blendWithWhite(spanColor(e.sample), 0.6), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(q);
    } else {
        paintSpan(p, r, e.sample, e.part, false);
    }
    return pm;
}

} // namespace

QColor spanColor(const TimelineSpan& span) {
    if (span.kind == SpanKind::Collective)
        return QColor(kCollectiveColors[idx(span.collective)]);
    return QColor(kKindColors[idx(span.kind)]);
}

QString spanKindLabel(SpanKind kind) {
    return QCoreApplication::translate("Timeline", kKindLabels[idx(kind)]);
}

QString collectiveLabel(Collective collective) {
    return QCoreApplication::translate("Timeline", kCollectiveLabels[idx(collective)]);
}

QStringList spanBarLabels(const TimelineSpan& span) {
    const QString unit = span.unit >= 0 ? QString::number(span.unit) : QString();
    switch (span.kind) {
    case SpanKind::Forward:
        return {QStringLiteral("F") + unit};
    case SpanKind::Backward:
        return {QStringLiteral("B") + unit};
    case SpanKind::Recompute:
        return {QStringLiteral("R") + unit};
    case SpanKind::Optimizer:
        return {QCoreApplication::translate("Timeline", "optimizer"),
                QCoreApplication::translate("Timeline", "opt")};
    case SpanKind::Data:
        return {QCoreApplication::translate("Timeline", "data")};
    case SpanKind::Checkpoint:
        return {QCoreApplication::translate("Timeline", "checkpoint"),
                QCoreApplication::translate("Timeline", "ckpt")};
    case SpanKind::Collective: {
        const QString name = QString::fromLatin1(kCollectiveShort[idx(span.collective)]);
        if (span.unit < 0)
            return {name};
        return {name + QStringLiteral(" u") + unit, QStringLiteral("u") + unit};
    }
    case SpanKind::Wait:
        return {QCoreApplication::translate("Timeline", "wait")};
    case SpanKind::Control:
        return {QCoreApplication::translate("Timeline", "ctl")};
    }
    return {};
}

QString formatMicros(double us) {
    if (us < 1000)
        return QString::number(us, 'f', 0) + QStringLiteral(" µs");
    return QString::fromStdString(threeDigits(us / 1000)) + QStringLiteral(" ms");
}

QString spanTooltip(const TimelineSpan& span) {
    QString title = span.kind == SpanKind::Collective ? collectiveLabel(span.collective)
                                                      : spanKindLabel(span.kind);
    if (span.kind == SpanKind::Wait)
        title = QCoreApplication::translate("Timeline", "Wait for %1")
                    .arg(collectiveLabel(span.collective));
    QString html = QCoreApplication::translate("Timeline", "<b>rank %1 · %2</b>")
                       .arg(span.rank)
                       .arg(title.toHtmlEscaped());
    QStringList facts;
    if (span.unit >= 0)
        facts << QCoreApplication::translate("Timeline", "unit %1").arg(span.unit);
    if (span.micro >= 0)
        facts << QCoreApplication::translate("Timeline", "micro-batch %1").arg(span.micro);
    if (span.seq >= 0)
        facts << QCoreApplication::translate("Timeline", "collective #%1").arg(span.seq);
    if (!facts.isEmpty())
        html += QStringLiteral("<br>") + facts.join(QStringLiteral(" · "));
    if (span.kind == SpanKind::Collective || span.kind == SpanKind::Control) {
        if (span.bytes > 0)
            html += QCoreApplication::translate("Timeline", "<br>%1 buffer")
                        .arg(formatBytes(double(span.bytes)));
        if (span.start_us > span.issue_us)
            html +=
                QCoreApplication::translate("Timeline", "<br>issued at %1, queued %2")
                    .arg(formatMicros(span.issue_us), formatMicros(span.start_us - span.issue_us));
    }
    html += QCoreApplication::translate("Timeline", "<br>start %1 · duration %2")
                .arg(formatMicros(span.start_us), formatMicros(span.end_us - span.start_us));
    if (span.kind == SpanKind::Wait)
        html += QCoreApplication::translate("Timeline",
                                            "<br><i>compute blocked: exposed communication</i>");
    return html;
}

void paintSpan(QPainter& painter, const QRectF& rect, const TimelineSpan& span, SpanPart part,
               bool highlighted) {
    painter.save();
    const QColor color = spanColor(span);
    if (part == SpanPart::Queued) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(blendWithWhite(color, 0.3));
        painter.drawRect(rect);
    } else if (span.kind == SpanKind::Wait) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(kWaitFill);
        painter.drawRect(rect);
        painter.setBrush(QBrush(kWaitHatch, Qt::BDiagPattern));
        painter.drawRect(rect);
        painter.setPen(QPen(kWaitHatch, 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect);
    } else {
        // A thin white edge separates neighbours that touch, once a bar is wide enough
        // for it not to eat the colour.
        painter.setPen(rect.width() >= 4 ? QPen(Qt::white, 1) : Qt::NoPen);
        painter.setBrush(color);
        painter.drawRect(rect);
    }
    if (highlighted) {
        painter.setPen(QPen(kHighlight, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect.adjusted(-1, -1, 1, 1));
    }
    painter.restore();
}

std::vector<TimelineLegendEntry> timelineLegendEntries(const std::vector<TimelineSpan>& spans) {
    std::array<bool, kSpanKindCount> kinds{};
    std::array<bool, kCollectiveCount> collectives{};
    bool queued = false;
    for (const auto& s : spans) {
        kinds[idx(s.kind)] = true;
        if (s.kind == SpanKind::Collective) {
            collectives[idx(s.collective)] = true;
            queued = queued || s.start_us > s.issue_us;
        }
    }
    std::vector<TimelineLegendEntry> out;
    for (std::size_t k = 0; k < kSpanKindCount; ++k) {
        const auto kind = static_cast<SpanKind>(k);
        if (!kinds[k] || kind == SpanKind::Collective)
            continue;
        TimelineLegendEntry e;
        e.sample.kind = kind;
        e.label = kind == SpanKind::Wait
                      ? QCoreApplication::translate("Timeline", "Wait (exposed comm)")
                      : spanKindLabel(kind);
        e.hint = QCoreApplication::translate("Timeline", kKindHints[k]);
        out.push_back(e);
    }
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        if (!collectives[c])
            continue;
        TimelineLegendEntry e;
        e.sample.kind = SpanKind::Collective;
        e.sample.collective = static_cast<Collective>(c);
        e.label = QCoreApplication::translate("Timeline", kCollectiveLabels[c]);
        e.hint = QCoreApplication::translate("Timeline", kCollectiveHints[c]);
        out.push_back(e);
    }
    if (queued) {
        TimelineLegendEntry e;
        e.sample.kind = SpanKind::Collective;
        e.sample.collective = Collective::AllGather;
        e.part = SpanPart::Queued;
        e.label = QCoreApplication::translate("Timeline", "queued (issued, not yet running)");
        e.hint = QCoreApplication::translate(
            "Timeline", "A collective handed to the communicator while an "
                        "earlier one still runs: the pale part before its bar.");
        out.push_back(e);
    }
    return out;
}

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent) {
    new FlowLayout(this, 14, 4); // wraps to the card's width
}

void TimelineLegend::setEntries(const std::vector<TimelineLegendEntry>& entries) {
    m_entries = entries;
    QLayout* flow = layout();
    while (QLayoutItem* item = flow->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto* cell = new QWidget(this);
        auto* row = new QHBoxLayout(cell);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(5);
        auto* icon = new QLabel(cell);
        icon->setPixmap(swatch(entries[i], devicePixelRatioF()));
        auto* text = new QLabel(entries[i].label, cell);
        text->setObjectName(QStringLiteral("legendLabel"));
        row->addWidget(icon);
        row->addWidget(text);
        cell->setToolTip(entries[i].hint);
        flow->addWidget(cell);
    }
}

QStringList TimelineLegend::labels() const {
    QStringList out;
    for (const auto& e : m_entries)
        out << e.label;
    return out;
}

} // namespace zerolab
