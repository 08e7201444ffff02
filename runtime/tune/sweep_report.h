// What a sweep found, for the terminal and for the GUI: the summary table (trial, the
// axes, tokens/s with its spread, peak memory per rank, exposed comm, status), the same
// as JSON, and the verdict on the best point with the measured noise, so that a "win"
// within the noise is not called a win.
#pragma once

#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

struct SweepVerdict {
    std::optional<int> best;          // the finished trial with the highest median tokens/s
    std::optional<int> runner_up;     // the next one
    std::vector<double> best_repeats; // medians of the best's repeats
    // The noise (tokens/s): the largest of the spreads within a run (half the interquartile
    // range over its measured steps) and between runs of one config (half the range of
    // its medians), over the best, the runner-up and their repeats.
    double noise_tokens_per_s = 0;
    // The best's lowest median (its trial or a repeat) minus the runner-up's highest.
    double margin_tokens_per_s = 0;
    bool within_noise = false; // margin <= noise: the best is not a clear win
    // The best's own runs disagree beyond their spread, even after measuring again: which
    // config wins is not known from these measurements.
    bool winner_unknown = false;
    int pruned = 0;
    int ran = 0; // trials launched (repeats included)
    int skipped = 0;
    int failed = 0; // failed, timeout, oom
};

SweepVerdict sweepVerdict(const std::vector<TrialRecord>& trials);

// The threads per rank a trial runs with: its config's run.threads (0: the runtime decides).
int trialThreads(const TrialRecord& trial);

// The table as text, one row per trial (pruned ones with the planner's forecast).
std::string formatSweepTable(const SweepSpec& spec, const std::vector<TrialRecord>& trials);
// One paragraph: counts, the best point, its noise and whether it is a clear win.
std::string formatVerdict(const std::vector<TrialRecord>& trials, const SweepVerdict& v);

// {"id", "name", "status", "strategy", "axes": [...], "trials": [{"trial", "phase",
//  "repeat_of", axis values by name..., "axes": {...}, "status", "reason", "tokens_per_s",
//  "spread_tokens_per_s", "peak_bytes", "exposed_ms", "forecast_bytes", "capacity_bytes",
//  "run_id", "world"}], "best": {...} | null, "pruned", "ran", ...}
nlohmann::json sweepJson(const SweepRecord& sweep, const SweepSpec& spec,
                         const std::vector<TrialRecord>& trials);

} // namespace zerolab
