// The ZeRO engine on CUDA (label gpu): real mpirun jobs with run.device "cuda" against
// the same jobs on the CPU. One GPU takes every rank through the host-staged MPI path;
// a machine with a GPU per rank takes NCCL. fp32 results agree to the CUDA kernels'
// tolerance (GEMM summation order), bf16 to bf16's; the ledger holds the planner's
// forecast on the device too, and device_used / peak come from the GPU. Skips, with
// the reason, where zerolab-gpu-info finds no device.
#include "tests/engine/engine_runs.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace zerolab {
namespace {

using test::expectLedgerEqualsPlanner;
using test::relDiff;
using test::RunOutput;
using test::train;

// Four steps of AdamW amplify the kernels' fp32 rounding differences (1e-4 per op).
constexpr double kFp32Tol = 1e-3;
constexpr double kBf16Tol = 3e-2;

class CudaEngine : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string info = std::string(ZEROLAB_BIN_DIR) + "/zerolab-gpu-info";
        if (!std::filesystem::exists(info))
            GTEST_SKIP() << "this build has no CUDA backend (no zerolab-gpu-info)";
        const auto r = test::runProcess({info});
        if (r.exit_code != 0)
            GTEST_SKIP() << "no CUDA device: " << r.err;
    }
};

void expectTracks(const RunOutput& got, const RunOutput& ref, double tol, const std::string& what) {
    ASSERT_EQ(got.losses.size(), ref.losses.size()) << what;
    for (std::size_t i = 0; i < ref.losses.size(); ++i)
        EXPECT_NEAR(got.losses[i], ref.losses[i], tol * std::abs(ref.losses[i]))
            << what << ", step " << i + 1;
    ASSERT_EQ(got.params.size(), ref.params.size()) << what;
    EXPECT_LT(relDiff(got.params, ref.params), tol) << what;
}

void expectOnTheGpu(const RunOutput& got, int n) {
    bool described = false;
    for (const auto& e : got.events)
        described = described || e.find("runs on cuda device") != std::string::npos;
    EXPECT_TRUE(described) << "no event names the CUDA device";
    ASSERT_EQ(got.ranks.size(), static_cast<std::size_t>(n));
    for (const auto& r : got.ranks) {
        EXPECT_GT(r["device_used"].get<long long>(), 0) << "rank " << r["rank"];
        EXPECT_GE(r["peak"].get<long long>(), r["device_used"].get<long long>());
    }
    expectLedgerEqualsPlanner(got, n);
}

TEST_F(CudaEngine, OneRankMatchesTheCpu) {
    const RunOutput cpu = train(1, 0, 1);
    const RunOutput gpu = train(1, 0, 1, false, false, nlohmann::json::object(), "cuda");
    expectTracks(gpu, cpu, kFp32Tol, "1 rank fp32");
    expectOnTheGpu(gpu, 1);
}

TEST_F(CudaEngine, EveryStageOnTwoRanksMatchesTheCpu) {
    const RunOutput cpu = train(1, 0, 1);
    for (int stage : {0, 1, 2, 3}) {
        const RunOutput gpu = train(2, stage, 3, true, false, nlohmann::json::object(), "cuda");
        expectTracks(gpu, cpu, kFp32Tol, "stage " + std::to_string(stage));
        expectOnTheGpu(gpu, 2);
    }
}

TEST_F(CudaEngine, Bf16StagesTrackTheCpu) {
    const RunOutput cpu = train(1, 0, 1, false, true);
    for (int stage : {0, 2, 3}) {
        const RunOutput gpu = train(2, stage, 3, true, true, nlohmann::json::object(), "cuda");
        expectTracks(gpu, cpu, kBf16Tol, "bf16 stage " + std::to_string(stage));
        expectOnTheGpu(gpu, 2);
    }
}

} // namespace
} // namespace zerolab
