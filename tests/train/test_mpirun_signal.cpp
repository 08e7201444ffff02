// A signal to mpirun itself (Ctrl-C in its terminal, SIGTERM to its pid), not to the ranks:
// Open MPI 4.1 passes it on as SIGTERM and kills the ranks 1 s later, whether or not their
// stop after the current step is done, and exits 1 (its own code). The run must still end
// stopped in the store, with a reason; signalled directly, the ranks stop as documented.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class MpirunSignal : public ::testing::Test {
protected:
    std::string config() {
        nlohmann::json c = {{"train_batch_size", 16},
                            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
                            {"zero_optimization", {{"stage", 1}}},
                            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                            {"run",
                             {{"steps", 1000000},
                              {"log_every", 1},
                              {"threads", 1},
                              {"checkpoint_dir", (m_dir / "ckpt").string()}}}};
        const fs::path p = m_dir / "cfg.json";
        std::ofstream(p) << c.dump();
        return p.string();
    }
    std::string db() const { return (m_dir / "runs.db").string(); }

    // Polls the store until its first run has `n` steps (or 60 s pass); returns them.
    std::int64_t waitForSteps(std::int64_t n) const {
        std::int64_t steps = -1;
        for (int i = 0; i < 600 && steps < n; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            try {
                RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
                const auto runs = reader.listRuns();
                if (!runs.empty())
                    steps = runs.front().steps;
            } catch (const StoreError&) {
            }
        }
        return steps;
    }

    // Polls the store until its first run exists (or 60 s pass).
    bool waitForRun() const {
        for (int i = 0; i < 600; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            try {
                if (!RunReader(RunStore::open(db(), OpenMode::ReadOnly)).listRuns().empty())
                    return true;
            } catch (const StoreError&) {
            }
        }
        return false;
    }

    test::TempDir m_temp{"mpirun-signal"};
    const fs::path m_dir = m_temp.path();
};

// Four ranks in a step that cannot end within mpirun's 2 s (rank 1's data comes 60 s late):
// SIGTERM to mpirun kills them before the step ends. Before the fix the run stayed running
// (no end line, no event, no checkpoint); now rank 0's watch records it stopped at once.
TEST_F(MpirunSignal, SigtermToMpirunEndsAFourRankRunStoppedWithTheReason) {
    // Open MPI's 1 s between its SIGTERM and its SIGKILL is stretched to 3 s so that rank 0's
    // watch is scheduled in time on a loaded machine; the step still cannot end (60 s).
    std::vector<std::string> argv = {"env", "ZEROLAB_FAULT_SLOW_RANK=1:60000",
                                     "OMPI_MCA_odls_base_sigkill_timeout=3"};
    const auto job_argv = test::mpirunTrain(4, {"--config", config(), "--db", db()});
    argv.insert(argv.end(), job_argv.begin(), job_argv.end());
    test::BackgroundProcess job(argv); // env execs mpirun: job.pid() is mpirun's
    ASSERT_TRUE(waitForRun()) << "the run never reached the store";
    ASSERT_EQ(::kill(job.pid(), SIGTERM), 0);
    const auto r = job.finish();
    // mpirun's own code when it was signalled (docs/reliability.md), not the ranks' 3.
    EXPECT_EQ(r.exit_code, 1) << r.err;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    EXPECT_EQ(run.status, RunStatus::Stopped);
    EXPECT_EQ(reader.run(run.id).end_message,
              "stopped by a signal; the ranks were ended before their stop was done (mpirun "
              "kills its ranks 1 s after passing its own SIGINT or SIGTERM on to them): every "
              "stored step is whole, no checkpoint of the stop");
}

// The same four ranks signalled themselves (mpirun's children, as the GUI, the Lab and the
// sweep do): each stops after its step, the run is stopped with a checkpoint, and mpirun
// exits with the ranks' 3.
TEST_F(MpirunSignal, SigtermToTheRanksStopsThemAndMpirunExitsThree) {
    test::BackgroundProcess job(test::mpirunTrain(4, {"--config", config(), "--db", db()}));
    ASSERT_GE(waitForSteps(2), 2) << "no step reached the store";
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    const auto r = job.finish();
    EXPECT_EQ(r.exit_code, 3) << r.err;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    EXPECT_EQ(run.status, RunStatus::Stopped);
    EXPECT_EQ(reader.checkpoints(run.id).size(), 1u);
    EXPECT_EQ(reader.run(run.id).end_message.rfind("stopped by request", 0), 0u)
        << reader.run(run.id).end_message;
}

// A run whose processes are gone (its heartbeat an hour old, on a host that cannot be
// asked) is settled by the next writer: the next run marks it lost as it starts.
TEST_F(MpirunSignal, TheNextRunSettlesARunWhoseProcessesAreGone) {
    std::int64_t gone = 0;
    {
        RunWriter w(RunStore::open(db()));
        RunInfo info;
        info.name = "killed";
        info.host = "some-other-host";
        info.world = 4;
        gone = w.createRun(info);
    }
    {
        RunStore store = RunStore::open(db());
        SqliteStatement(store.db(), "UPDATE runs SET heartbeat_at = heartbeat_at - 3600, "
                                    "started_at = started_at - 3600")
            .run();
    }
    nlohmann::json c = nlohmann::json::parse(std::ifstream(config()));
    c["run"]["steps"] = 1;
    std::ofstream(m_dir / "short.json") << c.dump();
    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", (m_dir / "short.json").string(), "--db", db()}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    EXPECT_EQ(reader.run(gone).status, RunStatus::Lost);
    EXPECT_EQ(reader.run(gone).end_message, "no heartbeat and no process: marked lost");
}

} // namespace
} // namespace zerolab
