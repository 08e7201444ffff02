// Points as one scatter graph per stage (so the legend names the stages), the frontier
// as a line graph under them, the capacity as a dashed vertical line with its name.
#include "gui/widgets/pareto_chart.h"

#include "gui/core/pareto_frontier.h"
#include "gui/core/units.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/style.h"

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace zerolab {

namespace {

// Okabe-Ito: told apart with every common colour-vision deficiency.
const QColor kFrontierColor(0x37, 0x41, 0x51);
constexpr double kHoverRadiusPx = 8;
// The capacity is drawn to scale while it is at most this many times the largest peak.
constexpr double kCapacityScaleFactor = 3;

// The points of one stage as a scatter graph in `style` (no line); null when it has none.
QCPGraph* stageScatter(QCustomPlot* plot, const QVector<TrialPoint>& points, int stage,
                       double divisor, const QCPScatterStyle& style) {
    QVector<double> x, y;
    for (const TrialPoint& t : points)
        if (std::clamp(t.stage, 0, 3) == stage && std::isfinite(t.peak_bytes) &&
            std::isfinite(t.tokens_per_s)) {
            x << t.peak_bytes / divisor;
            y << t.tokens_per_s;
        }
    if (x.isEmpty())
        return nullptr;
    auto* g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    g->setData(x, y);
    return g;
}

} // namespace

QColor ParetoChart::stageColor(int stage) {
    return kStageColors[std::size_t(std::clamp(stage, 0, 3))];
}

ParetoChart::ParetoChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    stylePlot(m_plot);
    attachChartActions(m_plot, {}, ChartDoubleClick::Keep);
    placeLegendAbove(m_plot);
    m_plot->setMinimumHeight(220);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ParetoChart::showTooltip);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* e) {
        const int i = trialAt(e->position());
        if (i >= 0)
            emit trialActivated(m_trials[i].id);
    });
    retranslate();
}

void ParetoChart::retranslate() {
    m_plot->yAxis->setLabel(tr("Throughput (tokens/s)"));
    rebuild();
}

void ParetoChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ParetoChart::setTrials(const QVector<TrialPoint>& trials) {
    m_trials = trials;
    rebuild();
}

void ParetoChart::setForecasts(const QVector<TrialPoint>& forecasts) {
    m_forecasts = forecasts;
    rebuild();
}

void ParetoChart::setCapacity(std::optional<double> bytes, const QString& name) {
    m_capacity = bytes && std::isfinite(*bytes) && *bytes > 0 ? bytes : std::nullopt;
    m_capacityName = name;
    rebuild();
}

QVector<long long> ParetoChart::frontierIds() const {
    QVector<long long> out;
    for (int i : m_frontier)
        out << m_trials[i].id;
    return out;
}

void ParetoChart::rebuild() {
    m_plot->clearGraphs();
    m_plot->clearItems();
    std::vector<TradeoffPoint> points;
    double maxPeak = 0;
    double maxSpeed = 0;
    for (const TrialPoint& t : m_trials) {
        points.push_back({t.peak_bytes, t.tokens_per_s});
        if (std::isfinite(t.peak_bytes))
            maxPeak = std::max(maxPeak, t.peak_bytes);
        if (std::isfinite(t.tokens_per_s))
            maxSpeed = std::max(maxSpeed, t.tokens_per_s);
    }
    for (const TrialPoint& t : m_forecasts) {
        if (std::isfinite(t.peak_bytes))
            maxPeak = std::max(maxPeak, t.peak_bytes);
        if (std::isfinite(t.tokens_per_s))
            maxSpeed = std::max(maxSpeed, t.tokens_per_s);
    }
    // A capacity far beyond every point (host RAM on a small model) would squeeze them
    // all against the axis: it is then named at the edge instead of drawn to scale.
    const bool capacityOnScale =
        m_capacity && (maxPeak <= 0 || *m_capacity <= kCapacityScaleFactor * maxPeak);
    const double maxBytes = capacityOnScale ? std::max(maxPeak, *m_capacity) : maxPeak;
    m_frontier = paretoFrontier(points);
    const DisplayUnit unit = byteUnitFor(maxBytes > 0 ? maxBytes : 1e6);
    m_unitDivisor = unit.divisor;
    m_plot->xAxis->setLabel(tr("Peak memory per rank (%1)").arg(unit.name));

    auto* frontier = m_plot->addGraph();
    frontier->setName(tr("Pareto frontier"));
    frontier->setPen(QPen(kFrontierColor, 1.5));
    frontier->setLineStyle(QCPGraph::lsStepLeft);
    QVector<double> fx, fy;
    for (int i : m_frontier) {
        fx << m_trials[i].peak_bytes / unit.divisor;
        fy << m_trials[i].tokens_per_s;
    }
    frontier->setData(fx, fy, true);
    frontier->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kFrontierColor, 1.5), Qt::NoBrush, 13));

    for (int stage = 0; stage < 4; ++stage)
        if (QCPGraph* g =
                stageScatter(m_plot, m_trials, stage, unit.divisor,
                             QCPScatterStyle(QCPScatterStyle::ssDisc, stageColor(stage), 8)))
            g->setName(tr("ZeRO %1").arg(stage));
    if (m_frontier.empty())
        frontier->removeFromLegend();

    bool named = false; // one legend entry for the hollow points of every stage
    for (int stage = 0; stage < 4; ++stage) {
        QCPGraph* g = stageScatter(m_plot, m_forecasts, stage, unit.divisor,
                                   QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                   QPen(stageColor(stage), 1.5), Qt::NoBrush, 9));
        if (!g)
            continue;
        g->setName(tr("forecast (hollow)"));
        if (named)
            g->removeFromLegend();
        named = true;
    }
    for (const TrialPoint& f : m_forecasts)
        for (const TrialPoint& t : m_trials)
            if (t.id == f.id && std::isfinite(f.tokens_per_s) && std::isfinite(t.tokens_per_s)) {
                auto* join = new QCPItemLine(m_plot);
                join->start->setCoords(f.peak_bytes / unit.divisor, f.tokens_per_s);
                join->end->setCoords(t.peak_bytes / unit.divisor, t.tokens_per_s);
                join->setPen(QPen(kTextFaint, 1, Qt::DotLine));
                join->setSelectable(false);
            }

    if (m_capacity) {
        const QString name = m_capacityName.isEmpty()
                                 ? tr("capacity %1").arg(formatBytes(*m_capacity))
                                 : m_capacityName;
        auto* text = new QCPItemText(m_plot);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        text->setPadding(QMargins(0, 0, 6, 0));
        text->setColor(kErrorColor);
        if (capacityOnScale) {
            const double x = *m_capacity / unit.divisor;
            auto* line = new QCPItemStraightLine(m_plot);
            line->point1->setCoords(x, 0);
            line->point2->setCoords(x, 1);
            line->setPen(QPen(kErrorColor, 1.5, Qt::DashLine));
            text->position->setTypeX(QCPItemPosition::ptPlotCoords);
            text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(x, 0.02);
            text->setText(name);
        } else {
            text->position->setType(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(1.0, 0.02);
            text->setText(tr("%1: far to the right, every point fits").arg(name));
        }
    }
    m_plot->legend->setVisible(!m_trials.isEmpty() || !m_forecasts.isEmpty());
    if (m_trials.isEmpty()) {
        auto* empty = new QCPItemText(m_plot);
        empty->position->setType(QCPItemPosition::ptAxisRectRatio);
        empty->position->setCoords(0.5, 0.5);
        empty->setColor(kTextMuted);
        empty->setText(tr("No finished trial yet: each appears here as it ends."));
    }
    m_plot->xAxis->setRange(0, maxBytes > 0 ? maxBytes / unit.divisor * 1.1 : 1);
    m_plot->yAxis->setRange(0, maxSpeed > 0 ? maxSpeed * 1.15 : 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int ParetoChart::trialAt(const QPointF& pixel) const {
    int best = -1;
    double bestDist = kHoverRadiusPx;
    for (int i = 0; i < m_trials.size(); ++i) {
        const TrialPoint& t = m_trials[i];
        if (!std::isfinite(t.peak_bytes) || !std::isfinite(t.tokens_per_s))
            continue;
        const double px = m_plot->xAxis->coordToPixel(t.peak_bytes / m_unitDivisor);
        const double py = m_plot->yAxis->coordToPixel(t.tokens_per_s);
        const double d = std::hypot(px - pixel.x(), py - pixel.y());
        if (d <= bestDist) {
            best = i;
            bestDist = d;
        }
    }
    return best;
}

void ParetoChart::showTooltip(QMouseEvent* event) {
    const int i = trialAt(event->position());
    if (i < 0) {
        QToolTip::hideText();
        return;
    }
    const TrialPoint& t = m_trials[i];
    const bool onFrontier = std::find(m_frontier.begin(), m_frontier.end(), i) != m_frontier.end();
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("Trial %1: %2\n%3 tokens/s · peak %4 per rank%5")
                           .arg(t.id)
                           .arg(t.label)
                           .arg(std::lround(t.tokens_per_s))
                           .arg(formatBytes(t.peak_bytes))
                           .arg(onFrontier ? tr("\nOn the Pareto frontier") : QString()),
                       m_plot);
}

} // namespace zerolab
