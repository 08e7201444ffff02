// Lines and stacked areas with QCustomPlot. Adaptive sampling keeps a replot of
// 100,000 points per series within a frame; stacked areas are drawn as running
// sums with each layer channel-filled down to the layer below it.
#include "gui/widgets/time_series_plot.h"

#include "gui/widgets/chart_actions.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/style.h"

#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace zerolab {

TimeSeriesPlot::TimeSeriesPlot(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    stylePlot(m_plot);
    m_plot->xAxis->grid()->setVisible(true);
    m_plot->setMinimumHeight(150);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    m_plot->setMouseTracking(true);
    m_plot->legend->setVisible(false);
    placeLegendAbove(m_plot);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimeSeriesPlot::showReadout);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    attachChartActions(
        m_plot, [this](QMenu& menu) { addOwnActions(menu); }, ChartDoubleClick::Keep);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TimeSeriesPlot::resampleStacked);
}

void TimeSeriesPlot::setAxisLabels(const QString& x, const QString& y) {
    m_plot->xAxis->setLabel(x);
    m_plot->yAxis->setLabel(y);
}

void TimeSeriesPlot::setEmptyText(const QString& text) {
    m_emptyText = text;
    updateEmptyText();
}

void TimeSeriesPlot::setMarkers(const QVector<PlotMarker>& markers) {
    m_markers = markers;
    updateEmptyText();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimeSeriesPlot::updateEmptyText() {
    m_plot->clearItems();
    // Segment boundaries: a dashed vertical line with its label at the top.
    for (const PlotMarker& m : m_markers) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(m.x, 0);
        line->point2->setCoords(m.x, 1);
        line->setPen(QPen(kTextMuted, 1.2, Qt::DashLine));
        line->setSelectable(false);
        auto* label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(m.x, 0.0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(4, 2, 4, 2));
        label->setText(m.label);
        label->setColor(kTextStrong);
        label->setBrush(withAlpha(kWhite, 210));
        label->setSelectable(false);
    }
    bool empty = true;
    for (const auto& s : m_series)
        empty = empty && s.x.isEmpty();
    if (!empty || m_emptyText.isEmpty())
        return;
    auto* text = new QCPItemText(m_plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setText(m_emptyText);
    text->setColor(kTextMuted);
    text->setSelectable(false);
}

void TimeSeriesPlot::setLines(const QVector<PlotSeries>& series) {
    m_plot->clearGraphs();
    m_stacked = false;
    m_series = series;
    for (const auto& s : series) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(s.name);
        g->setPen(QPen(s.color, 1.6, s.dashed ? Qt::DashLine : Qt::SolidLine));
        g->setAdaptiveSampling(true);
        g->setData(s.x, s.y, true);
    }
    m_overlayGraphs.clear();
    drawOverlay();
    updateEmptyText();
    resetZoom();
}

void TimeSeriesPlot::setOverlay(const QVector<PlotSeries>& lines) {
    for (QCPGraph* g : m_overlayGraphs)
        m_plot->removeGraph(g);
    m_overlayGraphs.clear();
    m_overlay = lines;
    drawOverlay();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimeSeriesPlot::drawOverlay() {
    for (const auto& s : m_overlay) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(s.name);
        g->setPen(QPen(s.color, 1.8, s.dashed ? Qt::DashLine : Qt::SolidLine));
        g->setData(s.x, s.y, true);
        m_overlayGraphs.push_back(g);
    }
    m_plot->legend->setVisible(m_series.size() + m_overlay.size() > 1);
}

void TimeSeriesPlot::setStacked(const QVector<PlotSeries>& layers) {
    m_plot->clearGraphs();
    m_stacked = true;
    m_series = layers;
    m_stackedSums.clear();
    QVector<double> running;
    QCPGraph* below = nullptr;
    for (const auto& layer : layers) {
        if (running.size() != layer.y.size())
            running = QVector<double>(layer.y.size(), 0.0);
        for (int i = 0; i < layer.y.size(); ++i)
            running[i] += std::isnan(layer.y[i]) ? 0.0 : layer.y[i];
        m_stackedSums.push_back(running);
        QCPGraph* g = m_plot->addGraph();
        g->setName(layer.name);
        g->setPen(QPen(layer.color.darker(115), 1.0));
        QColor fill = layer.color;
        fill.setAlpha(200);
        g->setBrush(fill);
        if (below)
            g->setChannelFillGraph(below);
        below = g;
    }
    m_overlayGraphs.clear();
    drawOverlay();
    updateEmptyText();
    resampleStacked(QCPRange(-1e300, 1e300));
    resetZoom();
}

// Channel fills do not benefit from adaptive sampling, so stacked layers are
// reduced here to at most one bucket mean per pixel column over the visible x range,
// and again whenever the range changes (zoom and pan stay exact enough to read).
void TimeSeriesPlot::resampleStacked(const QCPRange& range) {
    // About one point per pixel column: each channel fill costs its point count, and
    // more points than columns draw nothing more.
    const int points = std::clamp(m_plot->axisRect()->width(), 200, 1500);
    if (!m_stacked || m_series.isEmpty())
        return;
    const QVector<double>& x = m_series.front().x;
    const int lo = int(std::lower_bound(x.begin(), x.end(), range.lower) - x.begin());
    const int hi = int(std::upper_bound(x.begin(), x.end(), range.upper) - x.begin());
    const int first = std::max(0, lo - 1), last = std::min(int(x.size()), hi + 1);
    const int n = last - first;
    const int bucket = std::max(1, (n + points - 1) / points);
    for (int layer = 0;
         layer < m_stackedSums.size() && layer < m_series.size() && layer < m_plot->graphCount();
         ++layer) {
        const QVector<double>& sum = m_stackedSums[layer];
        QVector<double> bx, by;
        bx.reserve(n / bucket + 1);
        by.reserve(n / bucket + 1);
        for (int i = first; i < last; i += bucket) {
            const int end = std::min(last, i + bucket);
            double sx = 0, sy = 0;
            for (int j = i; j < end; ++j) {
                sx += x[j];
                sy += sum[j];
            }
            bx.push_back(sx / (end - i));
            by.push_back(sy / (end - i));
        }
        m_plot->graph(layer)->setData(bx, by, true);
    }
}

void TimeSeriesPlot::resetZoom() {
    if (m_stacked)
        resampleStacked(QCPRange(-1e300, 1e300));
    m_plot->rescaleAxes(true);
    const QCPRange y = m_plot->yAxis->range();
    if (m_plot->yAxis->scaleType() == QCPAxis::stLinear) {
        // Flat data (traffic per step, a constant forecast): QCustomPlot centres the old
        // range's size on the value, reaching below zero; show 0 to the value instead.
        QCPRange data;
        bool any = false;
        for (int g = 0; g < m_plot->graphCount(); ++g) {
            bool found = false;
            const QCPRange r = m_plot->graph(g)->getValueRange(found);
            if (found)
                data = any ? QCPRange(std::min(data.lower, r.lower), std::max(data.upper, r.upper))
                           : r;
            any = any || found;
        }
        if (any && data.lower > 0 && data.size() <= 1e-9 * data.upper) {
            m_plot->yAxis->setRange(0, 1.25 * data.upper);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
            return;
        }
        const bool fromZero = m_stacked || (y.lower >= 0 && y.lower < 0.2 * y.upper);
        const double lo = fromZero ? 0 : y.lower - 0.05 * y.size();
        m_plot->yAxis->setRange(lo, y.upper + 0.08 * std::max(y.size(), std::fabs(y.upper) * 0.01));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimeSeriesPlot::setLogY(bool on) {
    m_plot->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_plot->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    resetZoom();
}

bool TimeSeriesPlot::exportTo(const QString& path) {
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return m_plot->savePdf(path, 0, 0, QCP::epNoCosmetic);
    return m_plot->savePng(path, 0, 0, 2.0);
}

void TimeSeriesPlot::addOwnActions(QMenu& menu) {
    menu.addAction(tr("Reset zoom"), this, &TimeSeriesPlot::resetZoom);
    menu.addAction(tr("Export as PDF…"), this, [this] {
        const QString path = saveFileName(this, tr("Export plot"), {}, tr("PDF document (*.pdf)"));
        if (!path.isEmpty())
            exportTo(path.endsWith(QStringLiteral(".pdf")) ? path : path + QStringLiteral(".pdf"));
    });
}

void TimeSeriesPlot::showReadout(QMouseEvent* event) {
    if (m_series.isEmpty() || event->buttons() != Qt::NoButton)
        return;
    const double key = m_plot->xAxis->pixelToCoord(event->position().x());
    QString html;
    QVector<PlotSeries> shown = m_series;
    shown += m_overlay;
    for (const auto& s : shown) {
        if (s.x.isEmpty())
            continue;
        const auto it = std::lower_bound(s.x.begin(), s.x.end(), key);
        int i = int(it - s.x.begin());
        if (i >= s.x.size())
            i = int(s.x.size()) - 1;
        if (i > 0 && std::fabs(s.x[i - 1] - key) < std::fabs(s.x[i] - key))
            --i;
        if (html.isEmpty())
            html = QStringLiteral("<b>%1 = %2</b><table>")
                       .arg(m_plot->xAxis->label().toHtmlEscaped())
                       .arg(s.x[i], 0, 'g', 7);
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                               "<td align='right'>&nbsp;%3</td></tr>")
                    .arg(s.color.name(), s.name.toHtmlEscaped())
                    .arg(s.y[i], 0, 'g', 5);
    }
    if (html.isEmpty())
        return;
    QToolTip::showText(event->globalPosition().toPoint(), html + QStringLiteral("</table>"),
                       m_plot);
}

} // namespace zerolab
