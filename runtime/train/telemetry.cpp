// Turning gathered rank metrics into the stored step, and the run / event / end
// metric lines (the step line is storage/metric_lines.h's).
#include "runtime/train/telemetry.h"

#include <cmath>

namespace zerolab {

namespace {

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
        mean.alltoall.ms += r.alltoall_ms / n;
        mean.exposed_ms += r.exposed_ms / n;
    }
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        mean.per[c].bytes = r0.comm_bytes[c];
        mean.per[c].traffic = r0.comm_traffic[c];
        s.comm_bytes += r0.comm_bytes[c];
    }
    mean.alltoall.bytes = r0.alltoall_bytes;
    mean.alltoall.traffic = r0.alltoall_traffic;
    s.comm_bytes += r0.alltoall_bytes;
    // Ring algorithms are symmetric, and so are ZeRO++'s groups: every rank sends what
    // rank 0 sends, by link class too (storage/comm_traffic.h).
    mean.link = r0.link;
    s.traffic = mean.traffic();
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

nlohmann::json runLine(std::int64_t run_id, const RunInfo& info, const nlohmann::json& config) {
    return {{"type", "run"},         {"run_id", run_id},    {"name", info.name},
            {"world", info.world},   {"stage", info.stage}, {"precision", info.precision},
            {"params", info.params}, {"host", info.host},   {"uuid", info.uuid},
            {"config", config}};
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
