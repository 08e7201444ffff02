// Helpers for the run-store tests: file bytes, synthetic steps and running zerolab-runs as
// a process (the temporary folder is tests/support/temp_dir.h).
#pragma once

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "storage/records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab::test {

std::string readBytes(const std::string& path);
// Runs `sql` on the SQLite file at `path` through a plain connection (no RunStore, so no
// migration: for building a store as an older build left it). Returns SQLite's error
// message, empty on success.
std::string execSqlite(const std::string& path, const std::string& sql);
void writeBytes(const std::string& path, const std::string& bytes);

// A step with `world` rank rows whose values are all derived from (step, rank), so a
// reader can check every number it gets back (see expectStepValues).
StepRecord makeStep(std::int64_t step, int world);
RunInfo makeRunInfo(const std::string& name, int world);

using CliResult = ProcessResult;
// Runs build/bin/zerolab-runs with `args` (no shell; argv as given).
CliResult runCli(const std::vector<std::string>& args);

} // namespace zerolab::test
