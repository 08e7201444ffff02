// Real mpirun jobs of zerolab-train on the engine tests' fixed setup (nano, seq 16,
// global batch 36, 4 steps, AdamW with clipping): their loss curves, exported
// parameters, last per-rank rows and events, and the checks shared by the CPU and
// GPU equivalence tests.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace zerolab::test {

inline constexpr int kGlobalBatch = 36; // divisible by N * accumulation for N <= 4, accum 1, 3
inline constexpr int kSteps = 4;

struct RunOutput {
    std::string config_path;
    std::string db_path;  // the store the run is in
    std::string run_name; // its name there
    std::vector<double> losses;
    std::vector<float> params;
    std::vector<nlohmann::json> ranks; // the last step's per-rank rows
    nlohmann::json comm;               // the last step's collective times
    std::vector<std::string> events;   // the event lines' messages
    std::int64_t psi = 0;
};

// How a job's ranks are started: `argv(n, program, args)` is the command line that runs
// n ranks of `program` with `args` (test::mpirun by default); `name` tells its runs apart
// (run name, files) from the default's.
struct Launcher {
    std::string name;
    std::function<std::vector<std::string>(int n, const std::string& program,
                                           const std::vector<std::string>& args)>
        argv;
};

// One job of n ranks. patch: a JSON merge patch (RFC 7396) applied to the config, e.g.
// {"zero_optimization": {"reduce_scatter": false}} or {"model": {"recompute": "full"}};
// device: run.device; program: what mpirun starts (empty: zerolab-train), which must
// take zerolab-train's --config, --db, --run-name and --export-model; launcher: how the
// ranks are started (none: mpirun -np n on this host).
RunOutput train(int n, int stage, int accum, bool overlap = false, bool bf16 = false,
                const nlohmann::json& patch = nlohmann::json::object(),
                const std::string& device = "cpu", const std::string& program = "",
                const Launcher& launcher = {});

// The losses of a run's step lines (zerolab-train's stdout), and its run id (-1: none).
std::pair<std::vector<double>, long long> stepLosses(const std::string& out);

// Relative L2 distance of a from b.
double relDiff(const std::vector<float>& a, const std::vector<float>& b);

// docs/architecture.md fp32 model-state bytes per rank (K = 8).
double designModelStates(int stage, double psi, int n);

// The planner's forecast for zerolab's own GPT-2 is what each rank's ledger holds:
// every category, byte for byte (gtest expectations).
void expectLedgerEqualsPlanner(const RunOutput& got, int n);

} // namespace zerolab::test
