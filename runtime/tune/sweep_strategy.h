// The order trials run in. Grid: every candidate, in order. Guided (DeepSpeed's
// autotuner order): for each point of the other axes (stage, N, ...), micro-batch from
// small to large until the forecast no longer fits, a trial fails, or throughput stops
// rising (the rest are skipped); then the bucket axes at the best point; then, for both,
// the best trials once more to measure the noise, and again (at most kMaxExtraRepeats
// times) while a trial's runs disagree beyond their spread. A pure function of the recorded trials,
// so a resumed sweep takes the same decisions.
#pragma once

#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace zerolab {

// The candidates a sweep starts with, planned (pending, pruned or invalid).
std::vector<TrialRecord> initialTrials(const SweepSpec& spec);
// Told after each candidate is planned: how many are planned, of how many; false stops
// the planning.
using PlanningProgress = std::function<bool(std::size_t planned, std::size_t total)>;
// initialTrials, telling `progress` after each candidate; nullopt when it said stop.
std::optional<std::vector<TrialRecord>> initialTrials(const SweepSpec& spec,
                                                      const PlanningProgress& progress);

struct SweepStep {
    std::vector<TrialRecord> updates;   // existing trials whose status changes (skipped)
    std::vector<TrialRecord> additions; // the next phase's trials (idx assigned by the store)
    std::optional<int> next;            // the idx to run now (after updates and additions)
};

// What to do given the trials so far. Neither additions nor next: the sweep is done.
// When additions are returned, next is empty: store them and ask again.
SweepStep nextStep(const SweepSpec& spec, const std::vector<TrialRecord>& trials);

// The finished trial (not a repeat) with the highest median tokens/s; nullopt when none.
std::optional<int> bestTrial(const std::vector<TrialRecord>& trials);

// What a trial measured: its own median tokens/s and those of its finished repeats.
struct TrialMeasurements {
    std::vector<double> medians; // the trial's, then each finished repeat's
    double spread = 0;           // the largest spread within a run (half the IQR over its steps)
    double between = 0;          // the spread between runs: half the range of the medians
    int repeats = 0;             // repeats recorded, whatever their status
    double low() const;
    double high() const;
    // The noise of this trial's measurement: within a run or between its runs.
    double noise() const { return between > spread ? between : spread; }
    // The runs disagree beyond their own spread: their medians are further apart than
    // each run's spread explains.
    bool disagree() const { return between > spread; }
};
TrialMeasurements measurementsOf(const TrialRecord& trial, const std::vector<TrialRecord>& trials);

// Repeats a trial gets beyond the first while its runs disagree (then the winner is unknown).
inline constexpr int kMaxExtraRepeats = 2;

} // namespace zerolab
