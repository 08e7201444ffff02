// Metric names and units, and the row -> column conversion of logged steps.
#include "gui/core/run_data.h"

#include <QCoreApplication>

namespace zerolab {

namespace {
constexpr std::array<MetricInfo, kMetricCount> kMetrics = {{
    {"step", QT_TRANSLATE_NOOP("Metric", "Step"), ""},
    {"wall_time_s", QT_TRANSLATE_NOOP("Metric", "Wall time"), "s"},
    {"tokens", QT_TRANSLATE_NOOP("Metric", "Tokens"), QT_TRANSLATE_NOOP("Metric", "tokens")},
    {"loss", QT_TRANSLATE_NOOP("Metric", "Loss"), ""},
    {"lr", QT_TRANSLATE_NOOP("Metric", "Learning rate"), ""},
    {"grad_norm", QT_TRANSLATE_NOOP("Metric", "Grad norm"), ""},
    {"tokens_per_s", QT_TRANSLATE_NOOP("Metric", "Throughput"),
     QT_TRANSLATE_NOOP("Metric", "tokens/s")},
    {"mfu", QT_TRANSLATE_NOOP("Metric", "MFU"), QT_TRANSLATE_NOOP("Metric", "fraction")},
    {"step_ms", QT_TRANSLATE_NOOP("Metric", "Step time"), "ms"},
    {"fwd_ms", QT_TRANSLATE_NOOP("Metric", "Forward"), "ms"},
    {"bwd_ms", QT_TRANSLATE_NOOP("Metric", "Backward"), "ms"},
    {"optim_ms", QT_TRANSLATE_NOOP("Metric", "Optimizer"), "ms"},
    {"allreduce_ms", QT_TRANSLATE_NOOP("Metric", "All-reduce"), "ms"},
    {"reduce_scatter_ms", QT_TRANSLATE_NOOP("Metric", "Reduce-scatter"), "ms"},
    {"allgather_ms", QT_TRANSLATE_NOOP("Metric", "All-gather"), "ms"},
    {"broadcast_ms", QT_TRANSLATE_NOOP("Metric", "Broadcast"), "ms"},
    {"exposed_ms", QT_TRANSLATE_NOOP("Metric", "Exposed comm"), "ms"},
    {"traffic_bytes", QT_TRANSLATE_NOOP("Metric", "Traffic per rank"),
     QT_TRANSLATE_NOOP("Metric", "bytes")},
    {"busbw_gbps", QT_TRANSLATE_NOOP("Metric", "Bus bandwidth"), "GB/s"},
    {"within_traffic_bytes", QT_TRANSLATE_NOOP("Metric", "Traffic within hosts"),
     QT_TRANSLATE_NOOP("Metric", "bytes")},
    {"across_traffic_bytes", QT_TRANSLATE_NOOP("Metric", "Traffic across hosts"),
     QT_TRANSLATE_NOOP("Metric", "bytes")},
}};
} // namespace

const MetricInfo& metricInfo(Metric m) {
    return kMetrics[static_cast<std::size_t>(m)];
}

QString metricLabel(Metric m) {
    return QCoreApplication::translate("Metric", metricInfo(m).label);
}

QString metricAxisTitle(Metric m) {
    const MetricInfo& i = metricInfo(m);
    const QString label = metricLabel(m);
    return *i.unit
               ? QStringLiteral("%1 (%2)").arg(label, QCoreApplication::translate("Metric", i.unit))
               : label;
}

void StepColumns::append(const std::vector<StepRecord>& steps) {
    for (auto& c : columns)
        c.reserve(c.size() + qsizetype(steps.size()));
    for (const StepRecord& s : steps) {
        const double row[kMetricCount] = {double(s.step),
                                          s.wall_time_s,
                                          double(s.tokens),
                                          s.loss,
                                          s.lr,
                                          s.grad_norm,
                                          s.tokens_per_s,
                                          s.mfu,
                                          s.step_ms,
                                          s.fwd_ms,
                                          s.bwd_ms,
                                          s.optim_ms,
                                          s.comm.allreduce_ms,
                                          s.comm.reduce_scatter_ms,
                                          s.comm.allgather_ms,
                                          s.comm.broadcast_ms,
                                          s.comm.exposed_ms,
                                          s.traffic.total(),
                                          s.busbw_gbps,
                                          s.traffic.link.within,
                                          s.traffic.link.across};
        for (int i = 0; i < kMetricCount; ++i)
            columns[i].push_back(row[i]);
    }
}

void StepColumns::append(const StepColumns& more) {
    for (int i = 0; i < kMetricCount; ++i)
        columns[i] += more.columns[i];
}

} // namespace zerolab
