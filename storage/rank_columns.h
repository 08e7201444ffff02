// The column list of rank_steps after (run_id, step, rank), built from
// kMemCategoryNames so that the ledger categories are named in one place.
// Internal to storage/; shared by RunWriter (insert) and RunReader (select).
#pragma once

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

} // namespace zerolab
