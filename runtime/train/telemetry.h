// Per-step telemetry: what each rank measured (RankMetrics, a fixed-size record
// gathered to rank 0), the StepRecord the store keeps, and the metric line
// protocol of docs/architecture.md (one JSON object per line on stdout; docs/metrics.md).
#pragma once

#include "runtime/comm/communicator.h"
#include "storage/metric_lines.h"
#include "storage/records.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

// Trivially copyable: gathered as bytes. Times in ms, memory in bytes.
struct RankMetrics {
    double loss_part = 0; // this rank's share of the global mean loss
    double step_ms = 0;
    double fwd_ms = 0;
    double bwd_ms = 0;
    double optim_ms = 0;
    std::array<double, kCollectiveCount> comm_ms{};
    std::array<long long, kCollectiveCount> comm_bytes{};
    std::array<double, kCollectiveCount> comm_traffic{};
    double alltoall_ms = 0;
    long long alltoall_bytes = 0;
    double alltoall_traffic = 0;
    LinkTraffic link;
    double exposed_ms = 0;
    std::array<long long, kMemCategoryCount> mem{};
    long long rss = 0;
    long long device_used = 0;
    long long peak = 0;
    char host[64] = {};
};

// Step-level facts only rank 0 knows.
struct StepContext {
    long long step = 0;
    double wall_time_s = 0;
    long long tokens = 0; // cumulative
    long long step_tokens = 0;
    double lr = 0;
    double grad_norm = 0;
    int world = 1;
    double flops_per_token = 0;
    double peak_flops = 0; // 0 or less: MFU unknown
};

// Builds the stored step from every rank's metrics (rank order). Step-level times are
// rank 0's (tokens/s is defined on rank 0); comm times are the mean over ranks, bytes
// and traffic (per kind and by link class) rank 0's, busbw from the mean times.
StepRecord makeStepRecord(const StepContext& ctx, const std::vector<RankMetrics>& ranks);

// Metric line protocol (the step line is storage/metric_lines.h's stepLine).
nlohmann::json runLine(std::int64_t run_id, const RunInfo& info, const nlohmann::json& config);
nlohmann::json eventLine(EventLevel level, int rank, const std::string& message);
nlohmann::json endLine(RunStatus status, long long steps, const std::string& message);

} // namespace zerolab
