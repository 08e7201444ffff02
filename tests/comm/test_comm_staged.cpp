// The host-staged communicator (several ranks on one GPU) proven on the CPU kernels'
// memory under a real 3-rank mpirun (comm_staged_check) and what zerolab-train says when run.device
// is "cuda".
#include "tests/comm/rank_checks.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

TEST(StagedCommunicator, EveryCollectiveMatchesMpiOnThreeRanks) {
    test::expectEveryRankOk("comm_staged_check", 3);
}

// Without a usable GPU, run.device "cuda" is an error that names the key and the
// reason (no silent fallback to the CPU); with one, the run says where it ran.
TEST(CudaDevice, RefusedWithTheReasonOrRunOnTheGpu) {
    const test::TempDir temp("cuda");
    const fs::path dir = temp.path();
    const nlohmann::json c = {{"train_batch_size", 4},
                              {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                              {"run", {{"steps", 2}, {"device", "cuda"}, {"threads", 1}}}};
    std::ofstream(dir / "cuda.json") << c.dump();
    const auto r = test::runProcess(test::mpirunTrain(
        2, {"--config", (dir / "cuda.json").string(), "--db", (dir / "runs.db").string()}));
    const bool hasGpu =
        fs::exists(std::string(ZEROLAB_BIN_DIR) + "/zerolab-gpu-info") &&
        test::runProcess({std::string(ZEROLAB_BIN_DIR) + "/zerolab-gpu-info"}).exit_code == 0;
    if (hasGpu) {
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("runs on cuda device"), std::string::npos) << r.out;
    } else {
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("cuda.json: run.device: \"cuda\", but"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("use \"cpu\""), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "runs.db")) << "a refused run must leave no store behind";
    }
}

} // namespace
} // namespace zerolab
