// Writes a run store with synthetic but realistic runs (ZeRO stages 0-3, several
// world sizes, 8-rank memory breakdowns from the planner, decaying loss curves)
// through storage's RunWriter. Used by the GUI tests, the screenshots and the bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

struct FixtureRun {
    std::string name;
    int stage = 1;
    int world = 8;
    int steps = 300;
    bool bf16 = false;
    std::vector<std::string> tags;
    bool gpu = false; // run.device "cuda": rank rows carry device_used, the step's device peak
};

// The default set: five runs of the micro model at stages 0-3 and N = 2, 4, 8.
std::vector<FixtureRun> defaultFixtureRuns();

// A ZeRO-3 run of four ranks on a GPU (run.device "cuda", device memory in the rows).
FixtureRun gpuFixtureRun();

// Creates (or appends to) the store at path; returns the run ids in order.
// Throws StoreError.
std::vector<std::int64_t> writeFixtureStore(const std::string& path,
                                            const std::vector<FixtureRun>& runs);

} // namespace zerolab
