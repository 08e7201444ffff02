// Metric names and units, and the row -> column conversion of logged steps.
#include "gui/run_data.h"

namespace zerolab {

namespace {
constexpr std::array<MetricInfo, kMetricCount> kMetrics = {{
    {"step", "Step", ""},
    {"wall_time_s", "Wall time", "s"},
    {"tokens", "Tokens", "tokens"},
    {"loss", "Loss", ""},
    {"lr", "Learning rate", ""},
    {"grad_norm", "Grad norm", ""},
    {"tokens_per_s", "Throughput", "tokens/s"},
    {"mfu", "MFU", "fraction"},
    {"step_ms", "Step time", "ms"},
    {"fwd_ms", "Forward", "ms"},
    {"bwd_ms", "Backward", "ms"},
    {"optim_ms", "Optimizer", "ms"},
    {"allreduce_ms", "All-reduce", "ms"},
    {"reduce_scatter_ms", "Reduce-scatter", "ms"},
    {"allgather_ms", "All-gather", "ms"},
    {"broadcast_ms", "Broadcast", "ms"},
    {"exposed_ms", "Exposed comm", "ms"},
    {"traffic_bytes", "Traffic per rank", "bytes"},
    {"busbw_gbps", "Bus bandwidth", "GB/s"},
}};
} // namespace

const MetricInfo& metricInfo(Metric m) {
    return kMetrics[static_cast<std::size_t>(m)];
}

QString metricAxisTitle(Metric m) {
    const MetricInfo& i = metricInfo(m);
    const QString label = QString::fromUtf8(i.label);
    return *i.unit ? QStringLiteral("%1 (%2)").arg(label, QString::fromUtf8(i.unit)) : label;
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
                                          s.busbw_gbps};
        for (int i = 0; i < kMetricCount; ++i)
            columns[i].push_back(row[i]);
    }
}

void StepColumns::append(const StepColumns& more) {
    for (int i = 0; i < kMetricCount; ++i)
        columns[i] += more.columns[i];
}

} // namespace zerolab
