// Liveness under real mpirun (docs/engine.md, Liveness): a rank stopped with SIGSTOP
// stalls the run (status stalled, an event naming the rank, its pid and host), and the
// job then ends failed; a rank continued before the timeout raises no alarm; a run that
// logs rarely keeps its heartbeat fresh; the `end` line after a rank's death counts the
// stored steps.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "storage/run_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class Liveness : public ::testing::Test {
protected:
    std::string config(const nlohmann::json& run) {
        nlohmann::json c = {{"train_batch_size", 12},
                            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
                            {"zero_optimization", {{"stage", 1}}},
                            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                            {"run",
                             {{"steps", 1000000},
                              {"log_every", 1},
                              {"threads", 1},
                              {"checkpoint_dir", (m_dir / "ckpt").string()}}}};
        if (run.is_object())
            c["run"].update(run);
        const fs::path p = m_dir / "cfg.json";
        std::ofstream(p) << c.dump();
        return p.string();
    }
    std::string db() const { return (m_dir / "runs.db").string(); }

    // The first run as the store has it now; nullopt while there is none to read.
    std::optional<RunRecord> run() const {
        try {
            RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
            const auto runs = reader.listRuns();
            if (!runs.empty())
                return reader.run(runs.front().id);
        } catch (const StoreError&) {
        }
        return std::nullopt;
    }
    std::int64_t steps() const {
        try {
            RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
            const auto runs = reader.listRuns();
            return runs.empty() ? -1 : runs.front().steps;
        } catch (const StoreError&) {
            return -1;
        }
    }
    // Polls (at most 120 s, never a timed assertion: a bound on a wait) until `done`.
    template <typename Done> static bool waitFor(Done done) {
        for (int i = 0; i < 1200; ++i) {
            if (done())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    // mpirun's children, in rank order (they are started in order).
    static std::vector<std::string> rankPids(int mpirun) {
        const auto kids = test::runProcess({"pgrep", "-P", std::to_string(mpirun)});
        std::istringstream in(kids.out);
        std::vector<std::string> pids;
        for (std::string p; in >> p;)
            pids.push_back(p);
        return pids;
    }
    static std::optional<nlohmann::json> endLine(const std::string& out) {
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (!j.is_discarded() && j.value("type", "") == "end")
                return j;
        }
        return std::nullopt;
    }
    std::vector<Event> events() const {
        RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
        return reader.events(reader.listRuns().front().id);
    }

    test::TempDir m_temp{"liveness"};
    const fs::path m_dir = m_temp.path();
};

TEST_F(Liveness, StoppedRankStallsTheRunAndIsNamed) {
    test::BackgroundProcess job(test::mpirunTrain(
        3,
        {"--config", config({{"collective_timeout_s", 2}, {"on_stall", "flag"}}), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 3; })) << "no steps reached the store";
    const auto pids = rankPids(job.pid());
    ASSERT_EQ(pids.size(), 3u);
    ASSERT_EQ(test::runProcess({"kill", "-STOP", pids[1]}).exit_code, 0);
    const bool stalled = waitFor([&] {
        const auto r = run();
        return r && r->status != RunStatus::Running;
    });
    const auto r = run();
    EXPECT_TRUE(stalled && r->status == RunStatus::Stalled)
        << "the store still says " << runStatusName(r->status) << " with rank 1 stopped";
    bool named = false;
    for (const auto& e : events())
        named |= e.level == EventLevel::Error && e.rank == 1 &&
                 e.message.find("rank 1 (pid " + pids[1]) != std::string::npos &&
                 e.message.find("stopped") != std::string::npos &&
                 e.message.find("not arrived") != std::string::npos;
    EXPECT_TRUE(named) << r->end_message;
    // Ending the job (SIGTERM, as mpirun and the GUI's Stop send it) fails the run.
    ASSERT_EQ(test::runProcess({"kill", "-TERM", pids[0]}).exit_code, 0);
    const auto out = job.finish();
    test::runProcess({"kill", "-KILL", pids[1]}); // should mpirun have left it behind
    EXPECT_EQ(out.exit_code, 1) << out.err;
    EXPECT_EQ(run()->status, RunStatus::Failed);
    const auto end = endLine(out.out);
    ASSERT_TRUE(end.has_value()) << out.out;
    EXPECT_EQ((*end)["status"], "failed");
    EXPECT_GE((*end)["steps"].get<long long>(), 3);
}

// Issue 29 §11: rank 0 writes the store, so a stopped rank 0 left the run `running` for as
// long as it was stopped; continued, rank 0 blamed "a wedged device or transport" for its
// own stop. Rank 1 now sees rank 0 leave it waiting and records the stall naming rank 0;
// continued, the run goes on and rank 0 blames nobody.
TEST_F(Liveness, StoppedRankZeroIsNoticedByRankOne) {
    test::BackgroundProcess job(test::mpirunTrain(
        3,
        {"--config", config({{"collective_timeout_s", 2}, {"on_stall", "flag"}}), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 3; })) << "no steps reached the store";
    const auto pids = rankPids(job.pid());
    ASSERT_EQ(pids.size(), 3u);
    ASSERT_EQ(test::runProcess({"kill", "-STOP", pids[0]}).exit_code, 0);
    const bool stalled = waitFor([&] {
        const auto r = run();
        return r && r->status == RunStatus::Stalled;
    });
    const auto r = run();
    ASSERT_EQ(test::runProcess({"kill", "-CONT", pids[0]}).exit_code, 0);
    EXPECT_TRUE(stalled) << "the store still says " << runStatusName(r->status)
                         << " with rank 0 stopped";
    bool named = false;
    for (const auto& e : events())
        named |= e.level == EventLevel::Error && e.rank == 0 &&
                 e.message.find("not arrived: rank 0 (pid " + pids[0]) != std::string::npos &&
                 e.message.find("its process stopped") != std::string::npos &&
                 e.message.find("reported by rank 1") != std::string::npos;
    EXPECT_TRUE(named) << r->end_message;

    const std::int64_t before = steps();
    ASSERT_TRUE(waitFor([&] { return steps() >= before + 3; })) << "the run did not continue";
    // Rank 1 sets it running again at its next look (every 200 ms).
    EXPECT_TRUE(waitFor([&] { return run()->status == RunStatus::Running; }))
        << runStatusName(run()->status);
    for (const auto& e : events())
        EXPECT_EQ(e.message.find("wedged device or transport"), std::string::npos) << e.message;
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    const auto out = job.finish();
    EXPECT_EQ(out.exit_code, 3) << out.err;
    EXPECT_NE(out.err.find("reported by rank 1 (rank 0 writes the store)"), std::string::npos)
        << "no line for the launcher: " << out.err;
}

TEST_F(Liveness, StallWithKillPolicyEndsTheJob) {
    test::BackgroundProcess job(test::mpirunTrain(
        3,
        {"--config", config({{"collective_timeout_s", 2}, {"on_stall", "kill"}}), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 3; })) << "no steps reached the store";
    const auto pids = rankPids(job.pid());
    ASSERT_EQ(pids.size(), 3u);
    ASSERT_EQ(test::runProcess({"kill", "-STOP", pids[2]}).exit_code, 0);
    const auto out = job.finish();
    test::runProcess({"kill", "-KILL", pids[2]});
    EXPECT_EQ(out.exit_code, 1) << out.err;
    const auto r = run();
    EXPECT_EQ(r->status, RunStatus::Failed);
    EXPECT_NE(r->end_message.find("rank 2 (pid " + pids[2]), std::string::npos) << r->end_message;
    EXPECT_NE(r->end_message.find("run.on_stall is kill"), std::string::npos) << r->end_message;
    const auto end = endLine(out.out);
    ASSERT_TRUE(end.has_value()) << out.out;
    EXPECT_GE((*end)["steps"].get<long long>(), 3);
    EXPECT_LE((*end)["steps"].get<long long>(), steps());
}

TEST_F(Liveness, RankContinuedBeforeTheTimeoutRaisesNoAlarm) {
    test::BackgroundProcess job(test::mpirunTrain(
        3,
        {"--config", config({{"collective_timeout_s", 60}, {"on_stall", "flag"}}), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 3; })) << "no steps reached the store";
    const auto pids = rankPids(job.pid());
    ASSERT_EQ(pids.size(), 3u);
    ASSERT_EQ(test::runProcess({"kill", "-STOP", pids[1]}).exit_code, 0);
    std::this_thread::sleep_for(std::chrono::seconds(2)); // a pause well short of 60 s
    ASSERT_EQ(test::runProcess({"kill", "-CONT", pids[1]}).exit_code, 0);
    const std::int64_t before = steps();
    ASSERT_TRUE(waitFor([&] { return steps() >= before + 3; })) << "the run did not continue";
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    const auto out = job.finish();
    EXPECT_EQ(out.exit_code, 3) << out.err;
    EXPECT_EQ(run()->status, RunStatus::Stopped);
    for (const auto& e : events())
        EXPECT_EQ(e.message.find("stall"), std::string::npos) << e.message;
}

// A run that logs once in a million steps: its heartbeat still moves while it runs, so
// that no reader (on this host or another) takes it for lost.
TEST_F(Liveness, RareLoggingKeepsTheHeartbeat) {
    test::BackgroundProcess job(
        test::mpirunTrain(2, {"--config", config({{"log_every", 1000000}}), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 1; })) << "the first step never reached the store";
    const double first = run()->heartbeat_at;
    int moves = 0;
    double last = first;
    waitFor([&] {
        const auto r = run();
        if (!r || r->status != RunStatus::Running)
            return true;
        if (r->heartbeat_at > last) {
            last = r->heartbeat_at;
            ++moves;
        }
        return moves >= 2;
    });
    EXPECT_GE(moves, 2) << "the heartbeat did not move between logged steps";
    EXPECT_EQ(run()->status, RunStatus::Running);
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    EXPECT_EQ(job.finish().exit_code, 3);
}

TEST_F(Liveness, EndLineAfterARankDeathCountsTheStoredSteps) {
    test::BackgroundProcess job(test::mpirunTrain(3, {"--config", config(nullptr), "--db", db()}));
    ASSERT_TRUE(waitFor([&] { return steps() >= 3; })) << "no steps reached the store";
    const auto pids = rankPids(job.pid());
    ASSERT_EQ(pids.size(), 3u);
    ASSERT_EQ(test::runProcess({"kill", "-9", pids[1]}).exit_code, 0);
    const auto out = job.finish();
    EXPECT_NE(out.exit_code, 0);
    const auto end = endLine(out.out);
    ASSERT_TRUE(end.has_value()) << out.out;
    EXPECT_EQ((*end)["status"], "failed");
    EXPECT_GE((*end)["steps"].get<long long>(), 3) << end->dump();
    EXPECT_LE((*end)["steps"].get<long long>(), steps()) << end->dump();
}

} // namespace
} // namespace zerolab
