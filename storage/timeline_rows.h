// The step timeline's rows (schema v9: one row of timelines per sampled step): one
// StepTimeline written inside the caller's transaction, the sampled steps of a run, and
// one step's timeline read back. Internal to storage/ (RunWriter, RunReader).
#pragma once

#include "storage/timeline.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace zerolab {

class SqliteDb;

// Inserts every row of `tl` for `run_id`; the caller holds a write transaction. Throws
// StoreError for a step already stored, a rank outside [0, world) or an unknown kind.
void insertTimelineRows(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl);

// The run's sampled steps, ascending; the caller has checked that the run exists.
std::vector<long long> timelineStepRows(SqliteDb& db, std::int64_t run_id);

// One step's timeline, spans ordered by (rank, start_us), memory samples by (rank, t_us);
// nullopt when the step was not sampled.
std::optional<StepTimeline> timelineRows(SqliteDb& db, std::int64_t run_id, long long step);

} // namespace zerolab
