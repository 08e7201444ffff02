// One sweep, one driver (issue 29 §4): two `zerolab-sweep resume` of one sweep at once
// both ran trials (a trial got three runs, both exited 0). The second is refused naming
// the first's pid and host; a claim whose driver is gone is taken over (the SIGKILL case
// is SweepRuns.ResumesAfterTheSweepProcessIsKilled).
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/tune/sweep_lock.h"
#include "storage/run_reader.h"
#include "storage/store_clock.h"
#include "storage/sweep_store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class SweepLock : public ::testing::Test {
protected:
    std::string db() const { return (m_dir / "runs.db").string(); }
    std::string sweepFile() const {
        const nlohmann::json s = {
            {"base",
             {{"train_micro_batch_size_per_gpu", 1},
              {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
              {"model", {{"preset", "nano"}, {"seq_len", 16}}},
              {"run", {{"steps", 100}, {"threads", 1}}}}},
            {"axes", {{"world", {1}}, {"train_micro_batch_size_per_gpu", {1, 2}}}},
            {"strategy", "grid"},
            {"warmup_steps", 1},
            {"measure_steps", 3},
            {"trial_timeout_s", 120},
            {"repeat_best", 0},
            {"launcher", ZEROLAB_MPIEXEC}};
        const fs::path p = m_dir / "sweep.json";
        std::ofstream(p) << s.dump(2);
        return p.string();
    }
    std::optional<SweepDriver> recordedDriver() const {
        try {
            return SweepStore(RunStore::open(db(), OpenMode::ReadOnly)).driver(1);
        } catch (const StoreError&) {
            return std::nullopt; // not created yet
        }
    }
    test::TempDir m_temp{"sweep-lock"};
    const fs::path m_dir = m_temp.path();
};

TEST_F(SweepLock, SecondDriverIsRefusedNamingTheFirst) {
    ::setenv("ZEROLAB_FAULT_SLOW_RANK", "0:1000", 1); // 1 s steps: the first is still running
    test::BackgroundProcess first(
        {std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep", "run", sweepFile(), "--db", db()});
    ::unsetenv("ZEROLAB_FAULT_SLOW_RANK");
    std::optional<SweepDriver> holder;
    for (int i = 0; i < 600 && !holder; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        holder = recordedDriver();
    }
    ASSERT_TRUE(holder) << "the first driver never claimed the sweep";
    EXPECT_EQ(holder->pid, first.pid());
    EXPECT_EQ(holder->host, thisDriver().host);

    const auto second = test::runProcess(
        {std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep", "resume", "1", "--db", db()});
    EXPECT_EQ(second.exit_code, 2) << second.err;
    EXPECT_NE(second.err.find(db() + ": sweep 1 is being driven by zerolab-sweep pid " +
                              std::to_string(first.pid()) + " on " + thisDriver().host +
                              " (heartbeat "),
              std::string::npos)
        << second.err;

    ::kill(first.pid(), SIGTERM);
    const auto r = first.finish();
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_FALSE(recordedDriver()) << "a stopped driver releases the sweep";
    // One driver ran the trials: at most one run per trial.
    const auto runs = RunReader(RunStore::open(db(), OpenMode::ReadOnly)).listRuns();
    EXPECT_LE(runs.size(), 2u);
}

// The policy on a recorded driver: gone when its process is gone on this host, or when
// its heartbeat is older than kDriverStaleAfterS on any host; alive otherwise.
TEST_F(SweepLock, GoneDriversAreTakenOverLiveOnesAreNot) {
    const double now = unixNow();
    const SweepDriver me = thisDriver();
    EXPECT_FALSE(driverGone({me.pid, me.host, now}, now));
    EXPECT_TRUE(driverGone({me.pid, me.host, now - kDriverStaleAfterS - 1}, now));
    EXPECT_TRUE(driverGone({me.pid, me.host, kUnknown}, now));
    EXPECT_FALSE(driverGone({1, "another-host", now - 1}, now));
    // A pid that is no process here (a forked child, reaped).
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(driverGone({child, me.host, now}, now));
}

} // namespace
} // namespace zerolab
