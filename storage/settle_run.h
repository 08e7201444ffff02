// What a launcher of jobs (the sweep's trials, the Lab's runs) does with a job's run once
// the job has ended: tag it, and end it in the store when its ranks died before they could.
#pragma once

#include "storage/records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

// Adds `tags` to the run and, when `message` is not empty and the run is still marked
// running (or stalled), ends it with `status` and `message`. Nothing when run_id < 0.
// Throws StoreError.
void settleRun(const std::string& db_path, std::int64_t run_id,
               const std::vector<std::string>& tags, RunStatus status, const std::string& message);

} // namespace zerolab
