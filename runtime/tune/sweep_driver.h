// Running a sweep: create it in the store (definition and planned candidates), then ask
// the strategy for the next trial, run it, record it, until done, stopped or killed.
// resume is the same loop on a stored sweep: a trial found running (its zerolab-sweep was
// killed) has its process group ended and runs again. Progress goes to a stream.
#pragma once

#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace zerolab {

struct SweepRunOptions {
    std::string db_path;
    std::string program;              // zerolab-train
    std::ostream* progress = nullptr; // one line per trial started and ended, with the ETA
    const std::atomic<bool>* stop = nullptr;
};

// Failed: every trial decided and none finished (the sweep's status failed, its message the
// first trial's reason).
enum class SweepOutcome { Finished, Stopped, Failed };

// Where a sweep's trial configs and logs go: <store's folder>/sweeps/sweep-<id>. Derived
// from the store and the id, so a resume from any terminal finds them.
std::string sweepWorkDir(const std::string& db_path, std::int64_t sweep_id);

// Stores the sweep (status running) and its planned candidates, in one transaction;
// returns its id.
std::int64_t createSweep(SweepStore& store, const SweepSpec& spec);
// createSweep telling `progress` how far the planning is (a line every kPlanningReportS
// seconds: "zerolab-sweep: planned 41000 of 100000 candidates"), and giving up when *stop
// is set while it plans: then it says so on `progress`, stores nothing and returns nullopt.
std::optional<std::int64_t> createSweep(SweepStore& store, const SweepSpec& spec,
                                        std::ostream* progress, const std::atomic<bool>* stop);
inline constexpr double kPlanningReportS = 2.0;
// The spec of a stored sweep. Throws SweepError (an unknown id: StoreError).
SweepSpec storedSweepSpec(SweepStore& store, std::int64_t sweep_id);

// Runs the sweep's remaining trials one at a time, opening the store (options.db_path)
// only for each read and write: the caller must hold no connection to it meanwhile. Finished: every
// trial decided and one finished (the sweep's status becomes finished); Failed: none finished
// (status failed, with the reason); Stopped: *stop was set (status stopped, the
// trial in flight back to pending). Throws SweepError, StoreError.
SweepOutcome driveSweep(std::int64_t sweep_id, const SweepRunOptions& options);

// Why a sweep whose trials are all decided has no finished trial ("no trial finished (3 of 3
// candidates ran); trial 0 failed: ..."); nullopt when one finished.
std::optional<std::string> sweepFailure(const std::vector<TrialRecord>& trials);

struct BestConfig {
    int trial = 0;
    std::string config_path; // the best trial's config, as JSON
    std::string command;     // its mpirun command line
};

// <out_dir>/sweep-<id>-best.json (absolute): where writeBestConfig puts the best config
// (zerolab-sweep's default out_dir: sweepWorkDir), for a view that shows it.
std::string bestConfigPath(const std::string& out_dir, std::int64_t sweep_id);
// The command line that runs a config at N ranks, as the sweep launched its trials.
std::string bestConfigCommand(const SweepSpec& spec, const std::string& program, int world,
                              const std::string& config_path);

// Writes the best trial's config to bestConfigPath(out_dir) and returns it with
// the command line that runs it; nullopt when no trial finished. Throws SweepError.
std::optional<BestConfig> writeBestConfig(SweepStore& store, std::int64_t sweep_id,
                                          const std::string& program, const std::string& out_dir);

} // namespace zerolab
