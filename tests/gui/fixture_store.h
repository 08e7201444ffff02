// Writes a run store with synthetic but realistic runs (ZeRO stages 0-3, several
// world sizes, 8-rank memory breakdowns from the planner, decaying loss curves)
// through storage's RunWriter. Used by the GUI tests, the screenshots and the bench.
#pragma once

#include "runtime/planner/machine_profile.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// The run resumed at `step` with other settings: a new segment from there on.
struct FixtureRestart {
    int step = 0;
    int stage = 1;
    int world = 8;
    int gradAccum = 1;
};

struct FixtureRun {
    std::string name;
    int stage = 1;
    int world = 8;
    int steps = 300;
    bool bf16 = false;
    std::vector<std::string> tags;
    bool gpu = false; // run.device "cuda": rank rows carry device_used, the step's device peak
    // With restarts every segment stores its resolved config and prediction, as current
    // stores do; without, its one segment has neither, as in stores written before.
    std::vector<FixtureRestart> restarts = {};
    // Steps whose loss is this value instead of the curve (a spike, a dip).
    std::vector<std::pair<int, double>> lossAt = {};
};

// The default set: five runs of the micro model at stages 0-3 and N = 2, 4, 8.
std::vector<FixtureRun> defaultFixtureRuns();

// A ZeRO-3 run of four ranks on a GPU (run.device "cuda", device memory in the rows).
FixtureRun gpuFixtureRun();

// A ZeRO-1 run of two ranks restarted at step 100 as ZeRO-3 on three ranks with
// accumulation 2: two segments.
FixtureRun restartedFixtureRun();

// A machine no one has, for the step-time surfaces' tests: every kernel at 2 GFLOP/s (or
// elements/s), one link of 1 GB/s and 10 us a ring step, 64 cores so that ranks share
// nothing; "calibrated" on 2026-11-30 as "testbox".
MachineProfile fixtureMachineProfile();

// Creates (or appends to) the store at path; returns the run ids in order. Steps go in
// transactions of a few thousand (RunWriter::appendSteps), so a million steps x 8 ranks
// take a minute, not an hour. Throws StoreError.
std::vector<std::int64_t> writeFixtureStore(const std::string& path,
                                            const std::vector<FixtureRun>& runs);

} // namespace zerolab
