// Forecast card: plan() on every input change, bars per stage, capacity line and
// the verdict in words. "Host RAM" divides this machine's memory by N because
// every rank of a local CPU run shares it.
#include "gui/forecast_panel.h"

#include "gui/category_colors.h"
#include "gui/memory_bar_chart.h"
#include "gui/style.h"
#include "gui/units.h"
#include "runtime/plan_devices.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <unistd.h>

namespace zerolab {

long long hostMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? 1LL * pages * size : 0;
}

ForecastPanel::ForecastPanel(const QString& title, QWidget* parent)
    : QWidget(parent), m_chart(new MemoryBarChart(this)), m_device(new QComboBox(this)),
      m_verdict(new QLabel(this)), m_detail(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);
    auto* header = new QHBoxLayout;
    auto* heading = new QLabel(title, this);
    heading->setObjectName(QStringLiteral("cardTitle"));
    header->addWidget(heading);
    header->addStretch(1);
    auto* deviceLabel = new QLabel(tr("Device"), this);
    deviceLabel->setObjectName(QStringLiteral("muted"));
    header->addWidget(deviceLabel);
    m_device->addItem(tr("Host RAM ÷ N (this machine)"), QStringLiteral("host"));
    for (const auto& d : kDevicePresets)
        m_device->addItem(QString::fromUtf8(d.label.data(), int(d.label.size())),
                          QString::fromUtf8(d.key.data(), int(d.key.size())));
    header->addWidget(m_device);
    layout->addLayout(header);
    m_verdict->setWordWrap(true);
    m_detail->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("muted"));
    m_detail->setTextFormat(Qt::RichText);
    layout->addWidget(m_verdict);
    layout->addWidget(m_chart, 1);
    layout->addWidget(new CategoryLegend(this, 4));
    layout->addWidget(m_detail);
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        replan();
        emit deviceChanged();
    });
    connect(m_chart, &MemoryBarChart::groupClicked, this, &ForecastPanel::stageClicked);
}

void ForecastPanel::setDeviceKey(const QString& key) {
    const int i = m_device->findData(key);
    if (i >= 0)
        m_device->setCurrentIndex(i);
}

QString ForecastPanel::deviceKey() const {
    return m_device->currentData().toString();
}

DeviceMemory ForecastPanel::device(int world) const {
    const QString key = deviceKey();
    if (key == QLatin1String("host")) {
        const long long perRank = std::max(1LL, hostMemoryBytes() / std::max(1, world));
        return DeviceMemory{"custom", "host RAM / N", perRank};
    }
    return findDevice(key.toStdString()).value_or(DeviceMemory{});
}

void ForecastPanel::setInput(const PlanInput& in) {
    m_input = in;
    replan();
}

void ForecastPanel::replan() {
    if (!m_input)
        return;
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
    QVector<MemoryBarGroup> groups;
    for (const StagePlan& s : m_plan->stages)
        groups.push_back({tr("Stage %1").arg(s.stage), s.per_rank, std::nullopt});
    m_chart->setGroups(groups);
    m_chart->setHighlighted(in.stage);
    const QString deviceLabel = deviceKey() == QLatin1String("host")
                                    ? tr("host RAM ÷ %1").arg(in.world)
                                    : QString::fromStdString(in.device.label);
    m_chart->setCapacity(
        double(in.device.capacity_bytes),
        tr("%1: %2").arg(deviceLabel, formatBytes(double(in.device.capacity_bytes))));

    const StagePlan& chosen = m_plan->stages[std::clamp(in.stage, 0, 3)];
    const Verdict& v = m_plan->verdict;
    QString verdict;
    if (v.fits) {
        verdict = tr("Stage %1 fits: %2 per rank, %3 to spare on %4.")
                      .arg(in.stage)
                      .arg(formatBytes(double(chosen.total_bytes)),
                           formatBytes(double(v.margin_bytes)), deviceLabel);
    } else {
        verdict = tr("Stage %1 does not fit: %2 per rank, %3 over %4.")
                      .arg(in.stage)
                      .arg(formatBytes(double(chosen.total_bytes)),
                           formatBytes(double(-v.margin_bytes)), deviceLabel);
        if (v.lowest_stage)
            verdict += tr(" Stage %1 fits at N = %2.").arg(*v.lowest_stage).arg(in.world);
        else if (v.smallest_world[3])
            verdict += tr(" Stage 3 fits from N = %1.").arg(*v.smallest_world[3]);
    }
    m_verdict->setObjectName(v.fits ? QStringLiteral("verdictOk") : QStringLiteral("verdictBad"));
    repolish(m_verdict);
    m_verdict->setText(verdict);
    m_detail->setText(
        tr("ψ = %1 parameters · model states %2 · activations %3 · comm per step %4 (%5 s at "
           "%6 GB/s)")
            .arg(formatCount(double(m_plan->psi)), formatBytes(double(chosen.model_states_bytes)),
                 chosen.activations_known ? formatBytes(double(chosen.activation_bytes))
                                          : tr("not estimated"),
                 formatBytes(chosen.comm_bytes))
            .arg(chosen.comm_seconds, 0, 'g', 3)
            .arg(in.bandwidth_gbps, 0, 'g', 3));
}

} // namespace zerolab
