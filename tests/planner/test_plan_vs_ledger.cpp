// The planner against the runtime: for zerolab's own GPT-2, every rank's ledger in
// a real `mpirun -np 2 zerolab-train` job equals the planner's per-rank bytes for the
// same config, category by category (model states, activations, comm buffers,
// workspace), for stages 0-3 in fp32 and bf16.
#include "shell_run.h"

#include "runtime/config.h"
#include "runtime/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace zerolab;

namespace {

namespace fs = std::filesystem;

constexpr int kWorld = 2;

struct LedgerCase {
    int stage;
    bool bf16;
    bool overlap;
};

fs::path workDir() {
    static const fs::path dir = [] {
        fs::path d =
            fs::temp_directory_path() / ("zerolab-plan-ledger-" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

std::string writeConfig(const LedgerCase& c) {
    const nlohmann::json cfg = {
        {"train_batch_size", 4},
        {"gradient_accumulation_steps", 1},
        {"bf16", {{"enabled", c.bf16}}},
        {"zero_optimization", {{"stage", c.stage}, {"overlap_comm", c.overlap}}},
        {"model", {{"preset", "nano"}, {"seq_len", 16}}},
        {"data", {{"type", "synthetic"}}},
        {"run",
         {{"steps", 1},
          {"log_every", 1},
          {"threads", 1},
          {"checkpoint_dir", (workDir() / "ckpt").string()}}},
    };
    const fs::path p = workDir() / ("cfg-s" + std::to_string(c.stage) + (c.bf16 ? "-bf16" : "") +
                                    (c.overlap ? "-o" : "") + ".json");
    std::ofstream(p) << cfg.dump(2);
    return p.string();
}

// The per-rank `mem` objects of the last step line on stdout.
std::vector<nlohmann::json> lastStepMem(const std::string& out) {
    std::vector<nlohmann::json> mem;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || j.value("type", "") != "step")
            continue;
        mem.clear();
        for (const nlohmann::json& r : j.at("ranks"))
            mem.push_back(r.at("mem"));
    }
    return mem;
}

class PlanVsLedger : public ::testing::TestWithParam<LedgerCase> {};

} // namespace

TEST_P(PlanVsLedger, EveryCategoryOnEveryRank) {
    const LedgerCase c = GetParam();
    const std::string cfg = writeConfig(c);
    const ConfigResult config = loadConfigFile(cfg, kWorld);
    ASSERT_TRUE(config.ok()) << formatDiagnostic(cfg, config.diagnostics.front());
    const StagePlan planned = plan(planInputFromConfig(*config.config)).stages[c.stage];

    // The mpirun flags repeat the test environment's Open MPI settings, because
    // gtest_discover_tests applies only the first ENVIRONMENT entry of
    // tests/CMakeLists.txt's list.
    const std::string cmd = std::string(ZEROLAB_MPIEXEC) + " -np " + std::to_string(kWorld) +
                            " --oversubscribe --bind-to none --allow-run-as-root"
                            " --mca btl_vader_single_copy_mechanism none " +
                            ZEROLAB_BIN_DIR + "/zerolab-train --config " + cfg + " --db " +
                            (workDir() / "runs.db").string();
    const test::ShellRun run = test::runShell(cmd);
    ASSERT_EQ(run.code, 0) << run.err;
    const std::vector<nlohmann::json> ranks = lastStepMem(run.out);
    ASSERT_EQ(ranks.size(), static_cast<std::size_t>(kWorld)) << run.out;
    for (int r = 0; r < kWorld; ++r)
        for (std::size_t k = 0; k < kMemCategoryCount; ++k) {
            const std::string name(kMemCategoryNames[k]);
            EXPECT_EQ(ranks[r].at(name).get<long long>(), planned.per_rank.bytes[k])
                << "rank " << r << " category " << name;
        }
}

std::string caseName(const ::testing::TestParamInfo<LedgerCase>& info) {
    const LedgerCase& c = info.param;
    return "stage" + std::to_string(c.stage) + (c.bf16 ? "_bf16" : "_fp32") +
           (c.overlap ? "_overlap" : "");
}

INSTANTIATE_TEST_SUITE_P(Stages, PlanVsLedger,
                         ::testing::Values(LedgerCase{0, false, false}, LedgerCase{1, false, false},
                                           LedgerCase{2, false, false}, LedgerCase{3, false, false},
                                           LedgerCase{0, true, false}, LedgerCase{1, true, false},
                                           LedgerCase{2, true, true}, LedgerCase{3, true, true}),
                         caseName);
