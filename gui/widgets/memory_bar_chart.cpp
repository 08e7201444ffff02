// Stacked memory bars drawn with QCustomPlot. Values are plotted in the decimal
// unit (GB/MB) that fits the largest of bars, outlines and capacity, so the axis
// always reads in small numbers with the unit in its title.
#include "gui/widgets/memory_bar_chart.h"

#include "gui/core/units.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/style.h"

#include <QEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace zerolab {

MemoryBarChart::MemoryBarChart(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_caption(nullptr),
      m_markerNote(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_markerNote->setObjectName(QStringLiteral("dropMarkerNote"));
    m_markerNote->setTextFormat(Qt::RichText);
    m_markerNote->setWordWrap(true);
    m_markerNote->setContentsMargins(8, 2, 8, 0);
    m_markerNote->hide();
    layout->addWidget(m_markerNote);
    layout->addWidget(m_plot, 1);
    stylePlot(m_plot);
    attachChartActions(m_plot);
    QFont captionFont = m_plot->font();
    captionFont.setPointSizeF(8.5);
    m_caption = new QCPTextElement(m_plot, QString(), captionFont);
    m_caption->setTextColor(kErrorColor);
    m_caption->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    m_caption->setMargins(QMargins(0, 4, 8, 0));
    m_plot->setMinimumHeight(180);
    m_plot->setMouseTracking(true);
    QCPBars* below = nullptr;
    for (std::size_t i = 0; i < kMemCategoryCount; ++i) {
        const auto c = static_cast<MemCategory>(i);
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setBrush(memCategoryColor(c));
        bars->setPen(QPen(kWhite, 1));
        bars->setWidth(0.56);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
    }
    connect(m_plot, &QCustomPlot::mouseMove, this, &MemoryBarChart::showTooltip);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const int g = groupAt(e->position().x());
        if (g >= 0)
            emit groupClicked(g);
    });
    retranslate();
}

void MemoryBarChart::retranslate() {
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        m_bars[qsizetype(i)]->setName(memCategoryLabel(static_cast<MemCategory>(i)));
    rebuild();
}

void MemoryBarChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void MemoryBarChart::setGroups(const QVector<MemoryBarGroup>& groups) {
    m_groups = groups;
    if (m_highlighted >= m_groups.size())
        m_highlighted = -1;
    rebuild();
}

void MemoryBarChart::setHighlighted(int index) {
    m_highlighted = index;
    rebuild();
}

void MemoryBarChart::setCapacity(std::optional<double> bytes, const QString& label) {
    m_capacity = bytes;
    m_capacityLabel = label;
    rebuild();
}

void MemoryBarChart::setLogScale(bool on) {
    m_log = on;
    m_plot->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_plot->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    rebuild();
}

QString MemoryBarChart::capacityCaption() const {
    return m_caption->visible() ? m_caption->text() : QString();
}

double MemoryBarChart::segmentBytes(int group, MemCategory c) const {
    if (group < 0 || group >= m_groups.size())
        return 0;
    return double(m_groups[group].bytes[c]);
}

int MemoryBarChart::groupAt(double pixelX) const {
    const double key = m_plot->xAxis->pixelToCoord(pixelX);
    const int g = int(std::lround(key));
    if (g < 0 || g >= m_groups.size() || std::fabs(key - g) > 0.4)
        return -1;
    return g;
}

void MemoryBarChart::rebuild() {
    m_plot->clearItems();
    const Scale scale = computeScale();
    setUpAxes(scale.unit);
    fillBars(scale.unit);
    addGroupItems(scale.unit);
    showCapacity(scale);
    addDropMarker(scale.unit);
    setValueRange(scale);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

MemoryBarChart::Scale MemoryBarChart::computeScale() {
    Scale s;
    for (const auto& g : m_groups) {
        s.maxBytes = std::max(s.maxBytes, double(g.bytes.total()));
        if (g.predictedBytes)
            s.maxBytes = std::max(s.maxBytes, *g.predictedBytes);
    }
    // A capacity far above every bar (a CPU host's RAM) would flatten linear bars: it
    // is then only named above the plot. A log axis has room for it.
    s.capacityOnScale = m_capacity && (m_log || s.maxBytes <= 0 || *m_capacity <= 4 * s.maxBytes);
    if (s.capacityOnScale)
        s.maxBytes = std::max(s.maxBytes, *m_capacity);
    if (m_floor)
        s.maxBytes = std::max(s.maxBytes, *m_floor);
    m_topBytes = s.maxBytes;
    // Per parameter: bytes / psi on the axis and the labels ("10.0 B/param").
    s.unit = m_psi > 0 ? DisplayUnit{m_psi, tr("bytes per parameter")} : byteUnitFor(s.maxBytes);
    // The log axis starts a decade below the smallest total (or capacity) so every
    // bar rises visibly from the bottom.
    s.minBytes = s.maxBytes;
    for (const auto& g : m_groups)
        if (g.bytes.total() > 0)
            s.minBytes = std::min(s.minBytes, double(g.bytes.total()));
    if (s.capacityOnScale)
        s.minBytes = std::min(s.minBytes, *m_capacity);
    return s;
}

// One tick per group, named by its label; the value axis titled in `unit`.
void MemoryBarChart::setUpAxes(const DisplayUnit& unit) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int g = 0; g < m_groups.size(); ++g)
        ticker->addTick(g, m_groups[g].label);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->xAxis->setRange(-0.6, std::max<int>(1, int(m_groups.size())) - 0.4);
    // Per parameter the unit is the title ("bytes per parameter") unless the owner named
    // what is drawn; then "<title> (B/ψ)".
    if (m_psi > 0)
        m_plot->yAxis->setLabel(
            m_axisTitle.isEmpty() ? unit.name : QStringLiteral("%1 (B/ψ)").arg(m_axisTitle));
    else
        m_plot->yAxis->setLabel(QStringLiteral("%1 (%2)").arg(
            m_axisTitle.isEmpty() ? tr("Memory per rank") : m_axisTitle, unit.name));
}

// The stacked bars: one QCPBars per category, a value per group.
void MemoryBarChart::fillBars(const DisplayUnit& unit) {
    for (std::size_t i = 0; i < kMemCategoryCount; ++i) {
        QVector<double> keys, values;
        for (int g = 0; g < m_groups.size(); ++g) {
            keys << g;
            values << double(m_groups[g].bytes.bytes[i]) / unit.divisor;
        }
        m_bars[int(i)]->setData(keys, values, true);
    }
}

// Per group: the forecast's dashed outline, the highlight band, the total above the bar.
void MemoryBarChart::addGroupItems(const DisplayUnit& unit) {
    QFont labelFont = m_plot->font();
    labelFont.setPointSizeF(8.5);
    for (int g = 0; g < m_groups.size(); ++g) {
        const double total = double(m_groups[g].bytes.total()) / unit.divisor;
        double top = total;
        if (m_groups[g].predictedBytes) {
            const double predicted = *m_groups[g].predictedBytes / unit.divisor;
            auto* outline = new QCPItemRect(m_plot);
            outline->topLeft->setCoords(g - 0.34, predicted);
            outline->bottomRight->setCoords(g + 0.34, 0);
            outline->setPen(QPen(kTextStrong, 1.4, Qt::DashLine));
            outline->setBrush(Qt::NoBrush);
            outline->setSelectable(false);
            top = std::max(top, predicted);
        }
        if (g == m_highlighted) {
            auto* band = new QCPItemRect(m_plot);
            band->setLayer(QStringLiteral("grid"));
            band->topLeft->setType(QCPItemPosition::ptPlotCoords);
            band->topLeft->setCoords(g - 0.45, 1e12);
            band->bottomRight->setCoords(g + 0.45, -1e12);
            band->setPen(Qt::NoPen);
            band->setBrush(withAlpha(kAccent, 28));
            band->setSelectable(false);
        }
        auto* text = new QCPItemText(m_plot);
        text->position->setCoords(g, top);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setPadding(QMargins(0, 0, 0, 3));
        text->setText(valueText(double(m_groups[g].bytes.total())));
        // On white, so the capacity line or an outline passing behind stays legible.
        text->setBrush(withAlpha(kWhite, 230));
        QFont f = labelFont;
        f.setBold(g == m_highlighted);
        text->setFont(f);
        text->setColor(g == m_highlighted ? kAccent : kTextStrong);
        text->setSelectable(false);
    }
}

// The capacity: named in a caption row above the plot, and a dashed line when on scale.
void MemoryBarChart::showCapacity(const Scale& scale) {
    const bool capacityOnScale = scale.capacityOnScale;
    const DisplayUnit& unit = scale.unit;
    const QString capacityName =
        m_capacity ? (m_capacityLabel.isEmpty() ? formatBytes(*m_capacity) : m_capacityLabel)
                   : QString();
    m_caption->setVisible(m_capacity.has_value());
    // A hidden element still takes its row's height and spacing (a 22 px gap above the
    // plot), so the caption's row exists only while there is a capacity to name.
    if (m_capacity && !m_caption->layout()) {
        m_plot->plotLayout()->insertRow(0);
        m_plot->plotLayout()->addElement(0, 0, m_caption);
        m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    } else if (!m_capacity && m_caption->layout()) {
        m_plot->plotLayout()->take(m_caption);
        m_plot->plotLayout()->simplify();
    }
    m_caption->setTextColor(capacityOnScale ? kErrorColor : kOkColor);
    m_caption->setText(capacityOnScale ? tr("- - -  %1").arg(capacityName)
                                       : tr("%1  (above the scale)").arg(capacityName));
    if (m_capacity && capacityOnScale) {
        const double y = *m_capacity / unit.divisor;
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(0, y);
        line->point2->setCoords(1, y);
        line->setPen(QPen(kErrorColor, 1.5, Qt::DashLine));
        line->setSelectable(false);
    }
}

// The drop marker: a bracket from the first bar's total down to the intermediate total and
// a lighter one from there to the second bar's total, a dashed line at the intermediate
// total across both bars; the brackets tagged ① ② and their words in the note above.
void MemoryBarChart::addDropMarker(const DisplayUnit& unit) {
    if (!m_marker || m_marker->fromGroup < 0 || m_marker->fromGroup >= m_groups.size() ||
        m_marker->toGroup < 0 || m_marker->toGroup >= m_groups.size()) {
        m_markerNote->hide();
        return;
    }
    const int from = m_marker->fromGroup;
    const double top = double(m_groups[from].bytes.total()) / unit.divisor;
    const double via = m_marker->viaBytes / unit.divisor;
    const double end = double(m_groups[m_marker->toGroup].bytes.total()) / unit.divisor;
    // A second cause of nothing (sharding at N = 1): one bracket, no intermediate level.
    const bool second = via - end > 1e-3 * std::max(top - end, 1e-12);
    const double x = from + 0.36;
    if (second) {
        auto* level = new QCPItemLine(m_plot);
        level->start->setCoords(std::min(from, m_marker->toGroup) - 0.3, via);
        level->end->setCoords(std::max(from, m_marker->toGroup) + 0.3, via);
        level->setPen(QPen(kAccent, 1.2, Qt::DashLine));
        level->setSelectable(false);
    }
    QFont font = m_plot->font();
    font.setPointSizeF(8.5);
    font.setBold(true);
    const auto bracket = [&](double high, double low, const QColor& color, const QString& tag) {
        auto* b = new QCPItemBracket(m_plot);
        b->left->setCoords(x, low);
        b->right->setCoords(x, high);
        b->setLength(6);
        b->setStyle(QCPItemBracket::bsSquare);
        b->setPen(QPen(color, 1.6));
        b->setSelectable(false);
        auto* t = new QCPItemText(m_plot);
        t->position->setCoords(x + 0.04, m_log ? std::sqrt(high * low) : (high + low) / 2);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setText(tag);
        t->setBrush(withAlpha(kWhite, 230));
        t->setPadding(QMargins(2, 0, 2, 0));
        t->setFont(font);
        t->setColor(color);
        t->setSelectable(false);
        t->setObjectName(QStringLiteral("dropMarkerTag"));
    };
    const QString first = QStringLiteral("①"), next = QStringLiteral("②");
    bracket(top, second ? via : end, kAccent, first);
    if (second)
        bracket(via, end, kTextMuted, next);
    const auto span = [](const QColor& color, const QString& text, bool bold) {
        return QStringLiteral("<span style='color:%1;%2'>%3</span>")
            .arg(color.name(), bold ? QStringLiteral(" font-weight:600;") : QString(),
                 text.toHtmlEscaped());
    };
    QString note = span(kAccent, QStringLiteral("%1 %2").arg(first, m_marker->firstLabel), true);
    if (!m_marker->secondLabel.isEmpty())
        note += QStringLiteral("<br>") +
                span(kTextMuted,
                     second ? QStringLiteral("%1 %2").arg(next, m_marker->secondLabel)
                            : m_marker->secondLabel,
                     false);
    if (second && !m_marker->viaLabel.isEmpty())
        note += QStringLiteral(" &nbsp; ") +
                span(kAccent, QStringLiteral("- - -  %1").arg(m_marker->viaLabel), false);
    m_markerNote->setText(note);
    m_markerNote->show();
}

void MemoryBarChart::setValueRange(const Scale& scale) {
    const double maxBytes = scale.maxBytes;
    const double minBytes = scale.minBytes;
    const DisplayUnit& unit = scale.unit;
    if (m_log && maxBytes > 0) {
        const double lo = std::pow(10.0, std::floor(std::log10(minBytes / unit.divisor)) - 1);
        const double hi = maxBytes / unit.divisor;
        // Headroom for the total above the tallest bar: a fifth of the decades shown.
        m_plot->yAxis->setRange(lo, hi * std::pow(hi / lo, 0.2));
    } else {
        m_plot->yAxis->setRange(0, maxBytes > 0 ? maxBytes / unit.divisor * 1.15 : 1.0);
    }
}

// In the chart's unit: "16.00 B/ψ" per parameter, else "3.51 MB". Labels, tooltips and
// the axis say one unit.
QString MemoryBarChart::valueText(double bytes) const {
    return m_psi > 0 ? QStringLiteral("%1 B/ψ").arg(bytes / m_psi, 0, 'f', 2) : formatBytes(bytes);
}

void MemoryBarChart::setPerParameter(double psi) {
    m_psi = psi > 0 ? psi : 0;
    rebuild();
}

void MemoryBarChart::setScaleFloor(std::optional<double> bytes) {
    m_floor = bytes;
    rebuild();
}

void MemoryBarChart::showTooltip(QMouseEvent* event) {
    const int g = groupAt(event->position().x());
    if (g < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipHtml(g), m_plot);
}

QString MemoryBarChart::tooltipHtml(int g) const {
    if (g < 0 || g >= m_groups.size())
        return {};
    const auto& group = m_groups[g];
    QString html = QStringLiteral("<b>%1</b><table>").arg(group.label.toHtmlEscaped());
    for (int i = int(kMemCategoryCount) - 1; i >= 0; --i) {
        const auto c = static_cast<MemCategory>(i);
        if (group.bytes[c] == 0)
            continue;
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                               "<td align='right'>&nbsp;%3</td></tr>")
                    .arg(memCategoryColor(c).name(), memCategoryLabel(c),
                         valueText(double(group.bytes[c])));
    }
    html += tr("<tr><td><b>Total</b></td><td align='right'>&nbsp;<b>%1</b></td></tr>")
                .arg(valueText(double(group.bytes.total())));
    if (group.predictedBytes)
        html += tr("<tr><td>Predicted</td><td align='right'>&nbsp;%1</td></tr>")
                    .arg(valueText(*group.predictedBytes));
    return html + QStringLiteral("</table>");
}

} // namespace zerolab
