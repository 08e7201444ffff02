// The per-run figures of a summary that need the step rows: last step, last loss and
// the median tokens/s. Shared by RunReader (live runs) and by the writes that cache
// them in runs.final_* when a run ends. Internal to storage/.
#pragma once

#include "storage/records.h"

#include <cstdint>

namespace zerolab {

class SqliteDb;

struct RunTotals {
    std::int64_t last_step = -1; // -1 when the run has no step
    double last_loss = kUnknown;
    double median_tokens_per_s = kUnknown;
};

// Reads the totals of run_id with the caller's connection (and transaction, if any).
RunTotals computeRunTotals(SqliteDb& db, std::int64_t run_id);

// Stores them in runs.final_* of run_id.
void cacheRunTotals(SqliteDb& db, std::int64_t run_id, const RunTotals& totals);

} // namespace zerolab
