// Column lists built from kMemCategoryNames and kCollectiveNames, so that the ledger
// categories and collective kinds are named in one place: rank_steps after (run_id,
// step, rank), the segments' predicted_* and the steps' *_traffic_bytes columns.
// Internal to storage/; shared by RunWriter (insert) and RunReader (select).
#pragma once

#include "storage/comm_traffic.h"
#include "storage/mem_category.h"

#include <string>

namespace zerolab {

// "host, params, master_params, ..., workspace, rss, device_used, peak, allreduce_ms,
// reduce_scatter_ms, allgather_ms, broadcast_ms, exposed_ms": 1 + kMemCategoryCount + 8.
inline std::string rankValueColumns() {
    std::string cols = "host";
    for (auto name : kMemCategoryNames)
        cols += ", " + std::string(name);
    cols += ", rss, device_used, peak, allreduce_ms, reduce_scatter_ms, allgather_ms, "
            "broadcast_ms, exposed_ms";
    return cols;
}

inline constexpr int kRankValueColumnCount = 1 + static_cast<int>(kMemCategoryCount) + 8;

// "predicted_params, ..., predicted_workspace" (segments).
inline std::string predictedColumns() {
    std::string cols;
    for (auto name : kMemCategoryNames)
        cols += (cols.empty() ? "predicted_" : ", predicted_") + std::string(name);
    return cols;
}

// "allreduce_traffic_bytes, ..., broadcast_traffic_bytes, alltoall_traffic_bytes,
// within_traffic_bytes, across_traffic_bytes" (steps).
inline std::string trafficColumns() {
    std::string cols;
    for (auto name : kCollectiveNames)
        cols += (cols.empty() ? "" : ", ") + std::string(name) + "_traffic_bytes";
    for (auto name : kLinkColumnNames)
        cols += ", " + std::string(name);
    return cols;
}

// ", ?first, ?first+1, ..." for `count` more parameters of an INSERT.
inline std::string placeholders(int first, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count; ++i)
        s += ", ?" + std::to_string(first + static_cast<int>(i));
    return s;
}

} // namespace zerolab
