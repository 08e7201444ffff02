// Turning gathered rank metrics into the stored step and the JSON metric lines.
#include "runtime/telemetry.h"

#include <cmath>

namespace zerolab {

namespace {

nlohmann::json number(double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nullptr;
}

nlohmann::json commJson(const CommTimes& c) {
    return {{"allreduce_ms", c.allreduce_ms},
            {"reduce_scatter_ms", c.reduce_scatter_ms},
            {"allgather_ms", c.allgather_ms},
            {"broadcast_ms", c.broadcast_ms},
            {"exposed_ms", c.exposed_ms}};
}

CommTimes commTimes(const RankMetrics& m) {
    CommTimes c;
    c.allreduce_ms = m.comm_ms[static_cast<int>(Collective::AllReduce)];
    c.reduce_scatter_ms = m.comm_ms[static_cast<int>(Collective::ReduceScatter)];
    c.allgather_ms = m.comm_ms[static_cast<int>(Collective::AllGather)];
    c.broadcast_ms = m.comm_ms[static_cast<int>(Collective::Broadcast)];
    c.exposed_ms = m.exposed_ms;
    return c;
}

} // namespace

StepRecord makeStepRecord(const StepContext& ctx, const std::vector<RankMetrics>& ranks) {
    StepRecord s;
    s.step = ctx.step;
    s.wall_time_s = ctx.wall_time_s;
    s.tokens = ctx.tokens;
    s.lr = ctx.lr;
    s.grad_norm = ctx.grad_norm;
    const RankMetrics& r0 = ranks.front();
    double loss = 0;
    for (const auto& r : ranks)
        loss += r.loss_part;
    s.loss = loss;
    s.step_ms = r0.step_ms;
    s.fwd_ms = r0.fwd_ms;
    s.bwd_ms = r0.bwd_ms;
    s.optim_ms = r0.optim_ms;
    s.tokens_per_s = r0.step_ms > 0 ? ctx.step_tokens / (r0.step_ms * 1e-3) : kUnknown;
    s.mfu = ctx.peak_flops > 0 && std::isfinite(s.tokens_per_s)
                ? s.tokens_per_s * ctx.flops_per_token / ctx.peak_flops
                : kUnknown;

    CommStats mean;
    const double n = static_cast<double>(ranks.size());
    for (const auto& r : ranks) {
        for (std::size_t c = 0; c < kCollectiveCount; ++c)
            mean.per[c].ms += r.comm_ms[c] / n;
        mean.exposed_ms += r.exposed_ms / n;
    }
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        mean.per[c].bytes = r0.comm_bytes[c];
        s.comm_bytes += r0.comm_bytes[c];
    }
    s.comm.allreduce_ms = mean[Collective::AllReduce].ms;
    s.comm.reduce_scatter_ms = mean[Collective::ReduceScatter].ms;
    s.comm.allgather_ms = mean[Collective::AllGather].ms;
    s.comm.broadcast_ms = mean[Collective::Broadcast].ms;
    s.comm.exposed_ms = mean.exposed_ms;
    s.busbw_gbps = ctx.world > 1 ? mean.busbwGbps(ctx.world) : kUnknown;

    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankMetrics& m = ranks[i];
        RankRecord rr;
        rr.rank = static_cast<int>(i);
        rr.host = std::string(m.host);
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            rr.mem.bytes[c] = m.mem[c];
        rr.rss = m.rss;
        rr.device_used = m.device_used;
        rr.peak = m.peak;
        rr.comm = commTimes(m);
        s.ranks.push_back(std::move(rr));
    }
    return s;
}

nlohmann::json stepLine(const StepRecord& s) {
    nlohmann::json comm = commJson(s.comm);
    comm["bytes"] = s.comm_bytes;
    comm["busbw_gbps"] = number(s.busbw_gbps);
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& r : s.ranks) {
        nlohmann::json mem = nlohmann::json::object();
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            mem[std::string(kMemCategoryNames[c])] = r.mem.bytes[c];
        ranks.push_back({{"rank", r.rank},
                         {"host", r.host},
                         {"mem", mem},
                         {"rss", r.rss},
                         {"device_used", r.device_used},
                         {"peak", r.peak},
                         {"comm", commJson(r.comm)}});
    }
    return {{"type", "step"},
            {"step", s.step},
            {"segment", s.segment},
            {"wall_time_s", s.wall_time_s},
            {"tokens", s.tokens},
            {"loss", number(s.loss)},
            {"lr", number(s.lr)},
            {"grad_norm", number(s.grad_norm)},
            {"tokens_per_s", number(s.tokens_per_s)},
            {"mfu", number(s.mfu)},
            {"step_ms", number(s.step_ms)},
            {"fwd_ms", number(s.fwd_ms)},
            {"bwd_ms", number(s.bwd_ms)},
            {"optim_ms", number(s.optim_ms)},
            {"comm", comm},
            {"ranks", ranks}};
}

nlohmann::json runLine(std::int64_t run_id, const RunInfo& info, const nlohmann::json& config) {
    return {{"type", "run"},         {"run_id", run_id},    {"name", info.name},
            {"world", info.world},   {"stage", info.stage}, {"precision", info.precision},
            {"params", info.params}, {"host", info.host},   {"config", config}};
}

nlohmann::json eventLine(EventLevel level, int rank, const std::string& message) {
    return {{"type", "event"},
            {"level", std::string(eventLevelName(level))},
            {"rank", rank},
            {"message", message}};
}

nlohmann::json endLine(RunStatus status, long long steps, const std::string& message) {
    return {{"type", "end"},
            {"status", std::string(runStatusName(status))},
            {"steps", steps},
            {"message", message}};
}

} // namespace zerolab
