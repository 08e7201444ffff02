// The engine as a GPU sees it, proven on the CPU: fenced_train_check trains through
// FencedKernels (device memory the host cannot touch) and the host-staged communicator,
// every stage, fp32 and bf16, on two ranks, with a checkpoint at the end and the model
// exported. A host access to device memory anywhere in the model, the engine, the
// trainer or the communicator would end a rank with SIGSEGV; the results must equal
// the plain CPU run's, bit for bit (same kernels, same sums).
#include "tests/engine/engine_runs.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace zerolab
