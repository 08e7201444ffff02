// Every rank runs the same config (issue 29 §8): ranks started with different --steps (an
// MPMD launch) were misreported as "a wedged device or transport" and, with on_stall flag,
// the job hung. Now they are refused at start-up, naming the ranks and the differing keys.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

TEST(ConfigAgreement, RanksWithDifferentStepsAreRefusedNamingRanksAndKeys) {
    const test::TempDir temp("agree");
    const fs::path dir = temp.path();
    const nlohmann::json c = {
        {"train_batch_size", 12},
        {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
        {"model", {{"preset", "nano"}, {"seq_len", 16}}},
        {"run", {{"steps", 5}, {"threads", 1}, {"collective_timeout_s", 2}, {"on_stall", "flag"}}}};
    std::ofstream(dir / "cfg.json") << c.dump();
    const std::string train = test::toolPath("zerolab-train");
    const std::string db = (dir / "runs.db").string();
    const std::string cfg = (dir / "cfg.json").string();
    // A bound on the wait, never a timed assertion: before, this job hung for ever.
    const auto r = test::runProcess({"timeout",
                                     "120",
                                     ZEROLAB_MPIEXEC,
                                     "--oversubscribe",
                                     "--bind-to",
                                     "none",
                                     "-np",
                                     "1",
                                     train,
                                     "--config",
                                     cfg,
                                     "--db",
                                     db,
                                     "--steps",
                                     "5",
                                     ":",
                                     "-np",
                                     "2",
                                     train,
                                     "--config",
                                     cfg,
                                     "--db",
                                     db,
                                     "--steps",
                                     "3"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("zerolab-train: the ranks resolved different configs"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("rank 1 differs from rank 0 in steps (3, rank 0: 5)"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("rank 2 differs from rank 0 in steps (3, rank 0: 5)"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(db)) << "nothing is stored for a refused job";
}

} // namespace
} // namespace zerolab
