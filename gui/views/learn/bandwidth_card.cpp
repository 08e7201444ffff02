// Learn's step time against inter-host bandwidth (bandwidth_card.h): the preset's profile
// with its inter-host link set to each bandwidth in turn, predictStepTime for each stage,
// one line per stage on a logarithmic bandwidth axis.
#include "gui/views/learn/bandwidth_card.h"

#include "gui/core/step_forecast.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/link_meaning_label.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_source_combo.h"
#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/plan_time.h"
#include "runtime/planner/planner_units.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace zerolab {

namespace {

// Stage 3's extra traffic counts as hidden while its exposed part is under this share of
// the step.
constexpr double kHiddenShare = 0.05;
// While another tab of Learn's pane is shown, the card asks for no room of its own.
constexpr int kHiddenChartHeight = 70;
constexpr int kVerdictWidth = 300;

} // namespace

const std::vector<double>& BandwidthCard::bandwidths() {
    // 1 Gb/s Ethernet to NVLink-class rates, in bits: 1, 2.5, 10, 25, 50, 100, 200, 400,
    // 800 Gb/s, 1.6 Tb/s.
    static const std::vector<double> kBytesPerS = {1e9 / 8,   2.5e9 / 8, 10e9 / 8,  25e9 / 8,
                                                   50e9 / 8,  100e9 / 8, 200e9 / 8, 400e9 / 8,
                                                   800e9 / 8, 1600e9 / 8};
    return kBytesPerS;
}

BandwidthCard::BandwidthCard(QWidget* parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_sourceLabel(new QLabel(this)),
      m_source(new TimeSourceCombo(this)), m_perHostLabel(new QLabel(this)),
      m_perHost(new QComboBox(this)), m_plot(new QCustomPlot(this)), m_verdict(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    auto* row = new QHBoxLayout;
    m_heading->setObjectName(QStringLiteral("cardTitle"));
    // Wrapped where the row is narrow: a heading of one line set the card's width past the
    // tab's at 1280 px, and the scroll area (no horizontal bar) cut off its right edge.
    m_heading->setWordWrap(true);
    row->addWidget(m_heading, 1);
    m_sourceLabel->setObjectName(QStringLiteral("muted"));
    row->addWidget(m_sourceLabel);
    row->addWidget(m_source);
    m_perHostLabel->setObjectName(QStringLiteral("muted"));
    row->addWidget(m_perHostLabel);
    for (int gpus : {1, 2, 4, 8})
        m_perHost->addItem(QString::number(gpus), gpus);
    row->addWidget(m_perHost);
    layout->addLayout(row);
    layout->addWidget(new LinkMeaningLabel(m_source, this)); // what the preset's link means
    stylePlot(m_plot);
    attachChartActions(m_plot);
    placeLegendAbove(m_plot);
    m_plot->setMinimumHeight(kHiddenChartHeight);
    // Both axes logarithmic: the step at 1 Gb/s is orders of magnitude above NVLink's.
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    // The verdict beside the chart, not under it: under it, its three lines took the
    // chart's height at 1280x800.
    auto* body = new QHBoxLayout;
    body->addWidget(m_plot, 1);
    m_verdict->setWordWrap(true);
    m_verdict->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_verdict->setFixedWidth(kVerdictWidth);
    body->addWidget(m_verdict);
    layout->addLayout(body, 1);
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] { reforecast(); });
    connect(m_perHost, &QComboBox::currentIndexChanged, this,
            [this] { m_source->setRanksPerHost(m_perHost->currentData().toInt()); });
    m_source->setRanksPerHost(1);
    retranslate();
}

void BandwidthCard::retranslate() {
    m_heading->setText(tr("Step time against the link between hosts"));
    m_sourceLabel->setText(tr("Cluster"));
    m_perHostLabel->setText(tr("GPUs per host"));
    reforecast();
}

void BandwidthCard::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void BandwidthCard::showEvent(QShowEvent* event) {
    m_plot->setMinimumHeight(kChartHeight);
    QWidget::showEvent(event);
}

void BandwidthCard::hideEvent(QHideEvent* event) {
    m_plot->setMinimumHeight(kHiddenChartHeight);
    QWidget::hideEvent(event);
}

void BandwidthCard::setInput(const PlanInput& in) {
    m_input = in;
    reforecast();
}

void BandwidthCard::setMemory(const QString& deviceKey, const std::array<bool, 4>& fits) {
    m_fits = fits;
    if (deviceKey != m_deviceKey) {
        m_deviceKey = deviceKey;
        const QSignalBlocker block(m_source);
        m_source->selectPreset(deviceKey.toStdString());
    }
}

void BandwidthCard::setGpusPerHost(int gpus) {
    m_perHost->setCurrentIndex(m_perHost->findData(gpus));
}

QString BandwidthCard::verdictText() const {
    return m_verdict->text();
}

void BandwidthCard::reforecast() {
    const std::vector<double>& bw = bandwidths();
    for (auto& f : m_forecasts)
        f.assign(bw.size(), std::nullopt);
    m_configs = {};
    m_hiddenFrom.reset();
    m_plot->clearGraphs();
    m_plot->clearItems();
    if (!m_input) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const TimeSource source = m_source->source();
    QString refused;
    double top = 0;
    for (int s = 0; s < 4; ++s) {
        TrainConfig c = timeConfig(*m_input, s, std::max(1, m_input->micro_batch));
        m_configs[std::size_t(s)] = c;
        const ClusterShape cluster = clusterFor(source, c);
        m_hosts = cluster.hosts;
        for (std::size_t i = 0; i < bw.size(); ++i) {
            try {
                MachineProfile p = profileFor(source, c.precision);
                if (p.inter_link)
                    p.inter_link->bytes_per_s = bw[i];
                m_forecasts[std::size_t(s)][i] = predictStepTime(c, p, cluster);
                top = std::max(top, m_forecasts[std::size_t(s)][i]->step_s);
            } catch (const PlanError& e) {
                refused = QString::fromStdString(e.what());
            }
        }
    }
    const double unit = top >= 1 ? 1 : 1e-3;
    for (int s = 0; s < 4; ++s) {
        QVector<double> x, y;
        for (std::size_t i = 0; i < bw.size(); ++i)
            if (const auto& f = m_forecasts[std::size_t(s)][i]) {
                x << bw[i] * 8 / 1e9;
                y << f->step_s / unit;
            }
        auto* g = m_plot->addGraph();
        const bool fits = m_fits[std::size_t(s)];
        g->setName(fits ? tr("ZeRO %1").arg(s) : tr("ZeRO %1 (does not fit)").arg(s));
        const QColor color = kStageColors[std::size_t(s)];
        g->setPen(QPen(color, fits ? 2.0 : 1.2, fits ? Qt::SolidLine : Qt::DashLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
        g->setData(x, y);
    }
    // Stage 3 hidden: from the lowest bandwidth with every point at or above it hidden.
    for (std::size_t i = bw.size(); i-- > 0;) {
        const auto& f = m_forecasts[3][i];
        if (!f || f->comm_exposed_s > kHiddenShare * f->step_s)
            break;
        m_hiddenFrom = bw[i];
    }
    m_plot->xAxis->setLabel(tr("Bandwidth between hosts per GPU (Gb/s)"));
    m_plot->yAxis->setLabel(tr("Step time (%1)").arg(unit == 1 ? tr("s") : tr("ms")));
    m_plot->xAxis->setRange(bw.front() * 8 / 1e9 / 1.3, bw.back() * 8 / 1e9 * 1.3);
    double bottom = top;
    for (const auto& stage : m_forecasts)
        for (const auto& f : stage)
            if (f)
                bottom = std::min(bottom, f->step_s);
    m_plot->yAxis->setRange(bottom > 0 ? bottom / unit / 1.5 : 0.1, top > 0 ? top / unit * 1.5 : 1);
    if (m_hiddenFrom) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(*m_hiddenFrom * 8 / 1e9, 0);
        line->point2->setCoords(*m_hiddenFrom * 8 / 1e9, 1);
        line->setPen(QPen(kTextMuted, 1.2, Qt::DashLine));
    }
    m_plot->legend->setVisible(true);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const TrainConfig& c3 = *m_configs[3];
    QString text;
    if (!refused.isEmpty() && !m_forecasts[3].back())
        text = tr("No forecast: %1").arg(refused);
    else if (m_hosts == 1)
        text = tr("N = %1 fits on one host of %2 GPUs: no link between hosts, the lines are flat. "
                  "Raise N above %2, or put fewer GPUs on a host.")
                   .arg(c3.batch.world)
                   .arg(source.ranks_per_host);
    else if (m_hiddenFrom && *m_hiddenFrom <= bw.front())
        text = tr("On %1 hosts, stage 3's extra gathers hide behind compute at every bandwidth "
                  "drawn (exposed under 5% of the step).")
                   .arg(m_hosts);
    else if (m_hiddenFrom)
        text = tr("On %1 hosts, stage 3's extra gathers hide behind compute from %2 between "
                  "hosts (exposed under 5% of the step); below it they show: at %3, stage 3 "
                  "takes %4 a step against stage 1's %5.")
                   .arg(m_hosts)
                   .arg(QString::fromStdString(formatBandwidth(*m_hiddenFrom)),
                        QString::fromStdString(formatBandwidth(bw.front())),
                        QString::fromStdString(formatSeconds(m_forecasts[3].front()->step_s)),
                        m_forecasts[1].front()
                            ? QString::fromStdString(formatSeconds(m_forecasts[1].front()->step_s))
                            : QStringLiteral("—"));
    else
        text = tr("On %1 hosts, stage 3's extra gathers are never hidden up to %2: its exposed "
                  "communication stays above 5% of the step.")
                   .arg(m_hosts)
                   .arg(QString::fromStdString(formatBandwidth(bw.back())));
    m_verdict->setText(text + QLatin1Char(' ') +
                       tr("Forecast from %1; micro-batch %2, T = %3.")
                           .arg(sourceLabel(source, c3))
                           .arg(c3.batch.micro_batch)
                           .arg(c3.model.seq_len));
}

} // namespace zerolab
