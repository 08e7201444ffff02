// The engine as a GPU sees it, proven on the CPU: fenced_train_check trains through
// FencedKernels (device memory the host cannot touch) and the host-staged communicator,
// every stage, fp32 and bf16, on two ranks, with a checkpoint at the end and the model
// exported. A host access to device memory anywhere in the model, the engine, the
// trainer or the communicator would end a rank with SIGSEGV; the results must equal
// the plain CPU run's, bit for bit (same kernels, same sums).
#include "tests/engine/engine_runs.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace zerolab {
namespace {

using test::RunOutput;
using test::train;

const std::string kFenced = std::string(ZEROLAB_BIN_DIR) + "/../tests/fenced_train_check";

TEST(FencedEngine, EveryStageKeepsToTheKernelsAndMatchesThePlainRun) {
    for (bool bf16 : {false, true})
        for (int stage : {0, 1, 2, 3}) {
            const std::string what = "stage " + std::to_string(stage) + (bf16 ? " bf16" : "");
            const RunOutput plain = train(2, stage, 3, true, bf16);
            const RunOutput fenced =
                train(2, stage, 3, true, bf16, nlohmann::json::object(), "cpu", kFenced);
            ASSERT_EQ(fenced.losses.size(), plain.losses.size()) << what;
            ASSERT_FALSE(plain.losses.empty()) << what;
            for (std::size_t i = 0; i < plain.losses.size(); ++i)
                EXPECT_EQ(fenced.losses[i], plain.losses[i]) << what << ", step " << i + 1;
            ASSERT_EQ(fenced.params.size(), plain.params.size()) << what;
            EXPECT_EQ(fenced.params, plain.params) << what;
            // The same memory picture as the plain run: the ledger does not depend on
            // where the bytes live.
            ASSERT_EQ(fenced.ranks.size(), plain.ranks.size());
            for (std::size_t r = 0; r < plain.ranks.size(); ++r)
                EXPECT_EQ(fenced.ranks[r]["mem"], plain.ranks[r]["mem"]) << what;
        }
}

// Checkpoints copy the owned optimizer state out of device memory and back in through
// the kernels: a fenced run checkpointed at step 2 and resumed (also fenced) repeats the
// plain run's last steps exactly.
TEST(FencedEngine, CheckpointAndResumeGoThroughTheKernels) {
    namespace fs = std::filesystem;
    const test::TempDir temp("fenced");
    const fs::path dir = temp.path();
    const nlohmann::json c = {{"bf16", {{"enabled", true}}},
                              {"train_batch_size", 12},
                              {"gradient_accumulation_steps", 3},
                              {"zero_optimization", {{"stage", 3}, {"overlap_comm", true}}},
                              {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                              {"run",
                               {{"steps", 4},
                                {"seed", 7},
                                {"threads", 1},
                                {"checkpoint_every", 2},
                                {"checkpoint_dir", (dir / "ckpt").string()}}}};
    std::ofstream(dir / "c.json") << c.dump();
    const std::vector<std::string> common = {"--config", (dir / "c.json").string(), "--db",
                                             (dir / "runs.db").string()};
    const auto plain = test::runProcess(test::mpirunTrain(2, common));
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    const auto fenced = test::runProcess(test::mpirun(2, kFenced, common));
    ASSERT_EQ(fenced.exit_code, 0) << fenced.err;
    const auto [plainLosses, plainId] = test::stepLosses(plain.out);
    const auto [fencedLosses, fencedId] = test::stepLosses(fenced.out);
    ASSERT_EQ(plainLosses.size(), 4u);
    EXPECT_EQ(fencedLosses, plainLosses);

    std::vector<std::string> resume = common;
    resume.push_back("--resume");
    resume.push_back((dir / "ckpt" / ("run-" + std::to_string(fencedId)) / "step-2").string());
    const auto resumed = test::runProcess(test::mpirun(2, kFenced, resume));
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    const auto [resumedLosses, resumedId] = test::stepLosses(resumed.out);
    EXPECT_EQ(resumedId, fencedId);
    ASSERT_EQ(resumedLosses.size(), 2u);
    EXPECT_EQ(resumedLosses[0], plainLosses[2]);
    EXPECT_EQ(resumedLosses[1], plainLosses[3]);
}

} // namespace
} // namespace zerolab
