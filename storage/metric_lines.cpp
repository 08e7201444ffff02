// JSON of the step and rank objects; see metric_lines.h.
#include "storage/metric_lines.h"

#include <cmath>
#include <string>

namespace zerolab {

nlohmann::json metricNumber(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json rankLine(const RankRecord& r) {
    nlohmann::json mem = nlohmann::json::object();
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        mem[std::string(kMemCategoryNames[i])] = r.mem.bytes[i];
    return {{"rank", r.rank},
            {"host", r.host},
            {"mem", mem},
            {"rss", r.rss},
            {"device_used", r.device_used},
            {"peak", r.peak},
            {"allreduce_ms", metricNumber(r.comm.allreduce_ms)},
            {"reduce_scatter_ms", metricNumber(r.comm.reduce_scatter_ms)},
            {"allgather_ms", metricNumber(r.comm.allgather_ms)},
            {"broadcast_ms", metricNumber(r.comm.broadcast_ms)},
            {"exposed_ms", metricNumber(r.comm.exposed_ms)}};
}

nlohmann::json stepLine(const StepRecord& s) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankRecord& r : s.ranks)
        ranks.push_back(rankLine(r));
    nlohmann::json comm = {{"allreduce_ms", metricNumber(s.comm.allreduce_ms)},
                           {"reduce_scatter_ms", metricNumber(s.comm.reduce_scatter_ms)},
                           {"allgather_ms", metricNumber(s.comm.allgather_ms)},
                           {"broadcast_ms", metricNumber(s.comm.broadcast_ms)},
                           {"exposed_ms", metricNumber(s.comm.exposed_ms)},
                           {"bytes", s.comm_bytes},
                           {"busbw_gbps", metricNumber(s.busbw_gbps)},
                           {"traffic_bytes", metricNumber(s.traffic.total())}};
    for (std::size_t c = 0; c < kCollectiveCount; ++c)
        comm[std::string(kCollectiveNames[c]) + "_traffic_bytes"] =
            metricNumber(s.traffic.bytes[c]);
    const auto link = s.traffic.linkColumns();
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        comm[std::string(kLinkColumnNames[c])] = metricNumber(link[c]);
    return {{"type", "step"},
            {"step", s.step},
            {"segment", s.segment},
            {"wall_time_s", metricNumber(s.wall_time_s)},
            {"tokens", s.tokens},
            {"loss", metricNumber(s.loss)},
            {"lr", metricNumber(s.lr)},
            {"grad_norm", metricNumber(s.grad_norm)},
            {"tokens_per_s", metricNumber(s.tokens_per_s)},
            {"mfu", metricNumber(s.mfu)},
            {"step_ms", metricNumber(s.step_ms)},
            {"fwd_ms", metricNumber(s.fwd_ms)},
            {"bwd_ms", metricNumber(s.bwd_ms)},
            {"optim_ms", metricNumber(s.optim_ms)},
            {"comm", comm},
            {"ranks", ranks}};
}

std::string jsonText(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace zerolab
