// Forecast card: plan() on every input change, bars per stage, capacity line and
// the verdict in words. "Host RAM" divides this machine's memory by N because
// every rank of a local CPU run shares it.
#include "gui/widgets/forecast_panel.h"

#include "gui/core/units.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/planner_units.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace zerolab {

ForecastPanel::ForecastPanel(QWidget* parent)
    : QWidget(parent), m_chart(new MemoryBarChart(this)), m_heading(new QLabel(this)),
      m_deviceLabel(new QLabel(this)), m_reserveLabel(new QLabel(this)),
      m_device(new QComboBox(this)), m_reserve(new QDoubleSpinBox(this)),
      m_verdict(new QLabel(this)), m_detail(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);
    // Title on its own row, the device and its reserve under it: one row of all four
    // made the panel wider than a 1280-pixel window's share.
    m_heading->setObjectName(QStringLiteral("cardTitle"));
    layout->addWidget(m_heading);
    auto* header = new QHBoxLayout;
    m_deviceLabel->setObjectName(QStringLiteral("muted"));
    header->addWidget(m_deviceLabel);
    m_device->addItem(QString(), QStringLiteral("host")); // named in retranslate()
    for (const auto& d : kDevicePresets)
        m_device->addItem(QString::fromUtf8(d.label.data(), int(d.label.size())),
                          QString::fromUtf8(d.key.data(), int(d.key.size())));
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(12);
    header->addWidget(m_device, 1);
    m_reserveLabel->setObjectName(QStringLiteral("muted"));
    header->addWidget(m_reserveLabel);
    m_reserve->setRange(0, 1e4);
    m_reserve->setDecimals(2);
    m_reserve->setSingleStep(0.5);
    m_reserve->setSuffix(QStringLiteral(" GB"));
    header->addWidget(m_reserve);
    layout->addLayout(header);
    m_verdict->setWordWrap(true);
    m_detail->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("muted"));
    m_detail->setTextFormat(Qt::RichText);
    layout->addWidget(m_verdict);
    layout->addWidget(m_chart, 1);
    layout->addWidget(new CategoryLegend(this, 4));
    layout->addWidget(m_detail);
    const auto defaultReserve = [this] {
        const auto d = findDevice(deviceKey().toStdString());
        setReserveGb(d ? double(d->reserve_bytes) / 1e9 : 0.0);
    };
    defaultReserve();
    connect(m_device, &QComboBox::currentIndexChanged, this, [this, defaultReserve] {
        defaultReserve();
        replan();
        emit deviceChanged();
    });
    connect(m_reserve, &QDoubleSpinBox::valueChanged, this, [this] { replan(); });
    // With offload every stage has two bars (device, host): a click names the stage.
    connect(m_chart, &MemoryBarChart::groupClicked, this,
            [this](int group) { emit stageClicked(group / m_groupsPerStage); });
    retranslate();
}

void ForecastPanel::setTitle(const QString& title) {
    m_heading->setText(title);
}

void ForecastPanel::retranslate() {
    m_deviceLabel->setText(tr("Device"));
    m_device->setItemText(m_device->findData(QStringLiteral("host")),
                          tr("Host RAM ÷ N (this machine)"));
    m_reserveLabel->setText(tr("Reserve"));
    m_reserve->setToolTip(
        tr("Memory a rank holds outside the forecast: the CUDA context, cuBLAS workspace, "
           "NCCL's buffers and the allocator's fragmentation. Default on a GPU: 1 GiB + 5% "
           "of its memory (docs/planner.md); 0 for host RAM. GB = 1e9 bytes."));
    replan();
}

void ForecastPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ForecastPanel::setDeviceKey(const QString& key) {
    const int i = m_device->findData(key);
    if (i >= 0)
        m_device->setCurrentIndex(i);
}

QString ForecastPanel::deviceKey() const {
    return m_device->currentData().toString();
}

void ForecastPanel::setReserveGb(double gb) {
    const QSignalBlocker block(m_reserve);
    m_reserve->setValue(gb);
}

double ForecastPanel::reserveGb() const {
    return m_reserve->value();
}

DeviceCapacity ForecastPanel::device(int world) const {
    const QString key = deviceKey();
    DeviceCapacity d;
    if (key == QLatin1String("host")) {
        d = hostDevice(world, "host RAM / N");
    } else {
        d = findDevice(key.toStdString()).value_or(DeviceCapacity{});
    }
    // A reserve at or above the capacity leaves nothing usable; plan() refuses it by name.
    d.reserve_bytes = std::llround(m_reserve->value() * 1e9);
    return d;
}

void ForecastPanel::setInput(const PlanInput& in) {
    m_input = in;
    replan();
}

void ForecastPanel::setStale(bool stale) {
    if (stale == m_stale)
        return;
    m_stale = stale;
    QGraphicsOpacityEffect* fade = nullptr;
    if (stale) {
        fade = new QGraphicsOpacityEffect(m_chart);
        fade->setOpacity(0.3);
    }
    m_chart->setGraphicsEffect(fade); // the chart owns it; the old one is deleted
    replan();
}

void ForecastPanel::replan() {
    if (!m_input) {
        if (m_stale) {
            m_verdict->setObjectName(QStringLiteral("muted"));
            repolish(m_verdict);
            m_verdict->setText(tr("The config is invalid: no forecast until it is fixed."));
        }
        return;
    }
    PlanInput in = *m_input;
    in.device = device(in.world);
    try {
        m_plan = plan(in);
    } catch (const PlanError& e) {
        m_plan.reset();
        m_chart->setGroups({});
        m_verdict->setObjectName(QStringLiteral("verdictBad"));
        m_verdict->setText(tr("Cannot plan: %1").arg(QString::fromStdString(e.what())));
        repolish(m_verdict);
        m_detail->clear();
        return;
    }
    // ZeRO-Offload: what moved off the device is drawn beside it, as the stage's host bar.
    bool offloads = false;
    for (const StagePlan& s : m_plan->stages)
        offloads = offloads || s.offloaded.total() > 0;
    m_groupsPerStage = offloads ? 2 : 1;
    QVector<MemoryBarGroup> groups;
    for (const StagePlan& s : m_plan->stages) {
        groups.push_back({tr("Stage %1").arg(s.stage), s.per_rank, std::nullopt});
        if (offloads) // the stage's bar beside it: short, so that the labels never meet
            groups.push_back({tr("host"), s.offloaded, std::nullopt});
    }
    m_chart->setGroups(groups);
    m_chart->setHighlighted(in.stage * m_groupsPerStage);
    const QString deviceLabel = deviceKey() == QLatin1String("host")
                                    ? tr("host RAM ÷ %1").arg(in.world)
                                    : QString::fromStdString(in.device.label);
    m_chart->setCapacity(
        double(in.device.usableBytes()),
        tr("%1 usable: %2").arg(deviceLabel, formatBytes(double(in.device.usableBytes()))));

    const StagePlan& chosen = m_plan->stages[std::clamp(in.stage, 0, 3)];
    const Verdict& v = m_plan->verdict;
    // Units and the reserve are named in the verdict: "80 GB" cards hold 80 GiB.
    const QString usable =
        v.reserve_bytes > 0
            ? tr("the %1 usable on %2 (%3 less %4 reserved for the CUDA context, NCCL and "
                 "fragmentation; GB = 10⁹ bytes)")
                  .arg(formatBytes(double(v.usable_bytes)), deviceLabel,
                       formatBytes(double(v.capacity_bytes)), formatBytes(double(v.reserve_bytes)))
            : tr("the %1 of %2 (nothing reserved; GB = 10⁹ bytes)")
                  .arg(formatBytes(double(v.usable_bytes)), deviceLabel);
    QString verdict;
    if (v.fits) {
        verdict = tr("Stage %1 fits: %2 per rank, %3 to spare of %4.")
                      .arg(in.stage)
                      .arg(formatBytes(double(chosen.total_bytes)),
                           formatBytes(double(v.margin_bytes)), usable);
    } else {
        verdict = tr("Stage %1 does not fit: %2 per rank, %3 over %4.")
                      .arg(in.stage)
                      .arg(formatBytes(double(chosen.total_bytes)),
                           formatBytes(double(-v.margin_bytes)), usable);
        if (v.lowest_stage)
            verdict += tr(" Stage %1 fits at N = %2.").arg(*v.lowest_stage).arg(in.world);
        else if (v.smallest_world[3])
            verdict += tr(" Stage 3 fits from N = %1.").arg(*v.smallest_world[3]);
    }
    if (m_stale)
        verdict = tr("The config is invalid: this is not its forecast. Greyed: the last valid "
                     "config's (%1)")
                      .arg(verdict);
    m_verdict->setObjectName(m_stale  ? QStringLiteral("muted")
                             : v.fits ? QStringLiteral("verdictOk")
                                      : QStringLiteral("verdictBad"));
    repolish(m_verdict);
    m_verdict->setText(verdict);
    m_detail->setText(
        tr("ψ = %1 parameters · model states %2 · activations %3 · traffic per rank per step "
           "%4 = %5 B/ψ (%6 at %7 GB/s)")
            .arg(formatCount(double(m_plan->psi)), formatBytes(double(chosen.model_states_bytes)),
                 chosen.activations_known ? formatBytes(double(chosen.activation_bytes))
                                          : tr("not estimated"),
                 formatBytes(chosen.traffic.total()))
            .arg(chosen.traffic.total() / double(m_plan->psi), 0, 'f', 2)
            .arg(QString::fromStdString(formatSeconds(chosen.comm_seconds)))
            .arg(in.bandwidth_gbps, 0, 'g', 3));
    if (chosen.offloaded.total() > 0)
        m_detail->setText(m_detail->text() +
                          tr(" · offloaded per rank: host memory %1, NVMe %2 (per node %3) · PCIe "
                             "per step %4 (%5 at %6 GB/s); forecast, zerolab does not offload")
                              .arg(formatBytes(double(chosen.host_bytes)),
                                   formatBytes(double(chosen.nvme_bytes)),
                                   formatBytes(double(chosen.host_bytes_per_node)),
                                   formatBytes(chosen.pcie_bytes))
                              .arg(QString::fromStdString(formatSeconds(chosen.pcie_seconds)))
                              .arg(in.pcie_gbps, 0, 'g', 3));
}

} // namespace zerolab
