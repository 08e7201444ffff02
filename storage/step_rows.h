// The steps table's columns and the StepRecord read from them, and the level of detail
// of long runs over step_blocks (migrate_v5.sql). Internal to storage/; shared by
// RunWriter (block rows) and RunReader (steps, stepsLod).
#pragma once

#include "storage/records.h"
#include "storage/sqlite_db.h"

#include <cstdint>
#include <string>

namespace zerolab {

// Steps per block of step_blocks: block = step / kStepBlockSteps (the 128 of
// migrate_v5.sql's backfill).
inline constexpr std::int64_t kStepBlockSteps = 128;

// "step, segment, wall_time_s, ..., broadcast_traffic_bytes": what readStepRow reads.
std::string stepColumns();
// The StepRecord of columns first, first + 1, ... in stepColumns() order; NULL reads
// as NaN (kUnknown).
StepRecord readStepRow(const SqliteStatement& q, int first);

// INSERT OR REPLACE of the step_blocks row of run ?1, block ?2 from its step rows;
// inserts nothing when the block logged no step.
std::string insertStepBlockSql();

// Steps of run_id with first <= step <= last at a width of at least
// (last - first + 1) / buckets step numbers (StepLod); a width of 2 or less gives the
// steps as logged (no more rows than min/max pairs would). Spans of whole blocks are read
// from step_blocks, the steps after the run's last stored block from the steps table
// (as logged when they are few). Call inside a read transaction. buckets >= 1.
StepLod stepLodRows(SqliteDb& db, std::int64_t run_id, std::int64_t first, std::int64_t last,
                    std::int64_t buckets);

} // namespace zerolab
