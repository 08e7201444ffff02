// Two hosts on one machine, for real (docs/hosts.md): mpirun --hostfile
// across two network namespaces joined by a veth pair (tests/support/netns_hosts.h), TCP
// between them and shared memory only within one. A ZeRO-1 and a ZeRO-3 run of 2 x 2
// ranks equal the 4-rank run on one host, and their store rows and events name the two
// hosts; a link cut mid-run stalls the run, the watchdog names the ranks on the far side,
// and the job ends (run.on_stall kill) instead of hanging.
#include "tests/engine/engine_runs.h"
#include "tests/support/netns_hosts.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "storage/run_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

// The bound on a whole job: a hung mpirun is ended and the test fails (exit 124), it
// never waits for the CTest timeout.
constexpr int kJobBoundS = 120;

std::vector<std::string> bounded(std::vector<std::string> argv) {
    argv.insert(argv.begin(), {"timeout", "--kill-after=5", std::to_string(kJobBoundS)});
    return argv;
}

class TwoHosts : public ::testing::Test {
protected:
    void SetUp() override {
        m_hosts.emplace();
        if (m_hosts->skipped())
            GTEST_SKIP() << m_hosts->reason();
        ASSERT_TRUE(m_hosts->ok()) << m_hosts->reason();
    }
    void TearDown() override { m_hosts.reset(); }

    test::Launcher launcher() const {
        return {"two-hosts",
                [this](int n, const std::string& program, const std::vector<std::string>& args) {
                    return bounded(m_hosts->mpirun(n, program, args));
                }};
    }
    // The host a rank of a 4-rank job runs on: ranks 0, 1 on a, 2, 3 on b.
    std::string hostOf(int rank) const { return m_hosts->host(rank < 2 ? 'a' : 'b'); }

    std::optional<test::NetnsHosts> m_hosts;
    test::TempDir m_temp{"two-hosts"};
    const fs::path m_dir = m_temp.path();
};

std::int64_t runId(RunReader& reader, const std::string& name) {
    const auto id = reader.resolveRun(name);
    EXPECT_TRUE(id.has_value()) << "no run named " << name;
    return id.value_or(-1);
}

TEST_F(TwoHosts, ZeroRunsAcrossTwoHostsEqualOneHost) {
    for (const int stage : {1, 3}) {
        SCOPED_TRACE("stage " + std::to_string(stage));
        const test::RunOutput one = test::train(4, stage, 1);
        const test::RunOutput two =
            test::train(4, stage, 1, false, false, nlohmann::json::object(), "cpu", "", launcher());
        ASSERT_EQ(one.losses.size(), static_cast<std::size_t>(test::kSteps));
        ASSERT_EQ(two.losses.size(), one.losses.size());
        for (std::size_t i = 0; i < one.losses.size(); ++i)
            EXPECT_NEAR(two.losses[i], one.losses[i], 1e-5 * std::abs(one.losses[i]))
                << "step " << i + 1;
        EXPECT_LT(test::relDiff(two.params, one.params), 1e-5);
        // Link classes from the host names (no run.ranks_per_host in the config): across
        // two hosts half a world collective's traffic crosses; on one host none does.
        EXPECT_EQ(one.comm.value("across_traffic_bytes", -1.0), 0.0);
        EXPECT_GT(two.comm.value("across_traffic_bytes", 0.0), 0.0);
        EXPECT_DOUBLE_EQ(two.comm.value("across_traffic_bytes", 0.0),
                         two.comm.value("within_traffic_bytes", 0.0));

        // The store: rank 0's host on the run, each rank's host on its rows.
        RunReader reader(RunStore::open(two.db_path, OpenMode::ReadOnly));
        const std::int64_t id = runId(reader, two.run_name);
        EXPECT_EQ(reader.run(id).info.host, hostOf(0));
        const auto rows = reader.rankRows(id, test::kSteps);
        ASSERT_EQ(rows.size(), 4u);
        for (const RankRecord& r : rows)
            EXPECT_EQ(r.host, hostOf(r.rank)) << "rank " << r.rank;
        // The events: where every rank runs.
        const std::string placement = "4 ranks on 2 hosts: " + hostOf(0) + " has ranks 0, 1; " +
                                      hostOf(2) + " has ranks 2, 3";
        bool named = false;
        for (const Event& e : reader.events(id))
            named |= e.message == placement;
        EXPECT_TRUE(named) << "no event says: " << placement;
    }
}

// The cut: rank 0 waits in a collective for ranks 2 and 3, which it cannot observe (their
// beacons are on the other host); rank 1, on its own host, is seen through its beacon and
// is not blamed.
TEST_F(TwoHosts, CutLinkStallsNamingTheFarRanksAndTheJobEnds) {
    const nlohmann::json c = {{"train_batch_size", 36},
                              {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
                              {"zero_optimization", {{"stage", 1}}},
                              {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                              {"run",
                               {{"steps", 1000000},
                                {"log_every", 1},
                                {"threads", 1},
                                {"collective_timeout_s", 2},
                                {"on_stall", "kill"},
                                {"checkpoint_dir", (m_dir / "ckpt").string()}}}};
    const std::string cfg = (m_dir / "cfg.json").string();
    std::ofstream(cfg) << c.dump();
    const std::string db = (m_dir / "runs.db").string();
    auto steps = [&]() -> std::int64_t {
        try {
            RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
            const auto runs = reader.listRuns();
            return runs.empty() ? -1 : runs.front().steps;
        } catch (const StoreError&) {
            return -1;
        }
    };
    test::BackgroundProcess job(bounded(
        m_hosts->mpirun(4, test::toolPath("zerolab-train"), {"--config", cfg, "--db", db})));
    // Polls (at most 120 s, a bound on a wait, never a timed assertion).
    bool started = false;
    for (int i = 0; i < 1200 && !started; ++i) {
        started = steps() >= 3;
        if (!started)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(started) << "no steps reached the store";
    ASSERT_TRUE(m_hosts->cut());
    const test::ProcessResult out = job.finish();
    ASSERT_NE(out.exit_code, 124) << "mpirun still ran " << kJobBoundS
                                  << " s after the start: the job hung\n"
                                  << out.err;
    EXPECT_EQ(out.exit_code, 1) << out.err;

    RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
    const RunSummary summary = reader.listRuns().front();
    const RunRecord r = reader.run(summary.id);
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_NE(r.end_message.find("run.on_stall is kill"), std::string::npos) << r.end_message;
    // The stall event names both far ranks with their host, and nobody on rank 0's.
    std::optional<Event> stall;
    for (const Event& e : reader.events(summary.id))
        if (e.level == EventLevel::Error && e.message.rfind("stall: ", 0) == 0 && !stall)
            stall = e;
    ASSERT_TRUE(stall.has_value()) << r.end_message;
    EXPECT_EQ(stall->rank, 2);
    for (const int far : {2, 3}) {
        const std::string who = "rank " + std::to_string(far) + " (pid ";
        const auto at = stall->message.find(who);
        ASSERT_NE(at, std::string::npos) << stall->message;
        EXPECT_EQ(stall->message.compare(stall->message.find(" on ", at), 4 + hostOf(far).size(),
                                         " on " + hostOf(far)),
                  0)
            << stall->message;
    }
    EXPECT_NE(stall->message.find("no rank on rank 0's host is behind"), std::string::npos)
        << stall->message;
    EXPECT_EQ(stall->message.find("rank 1 "), std::string::npos) << stall->message;

    // What is kept: every step stored before the cut, whole (4 rank rows with their hosts),
    // and an `end` line that counts no more steps than the store has.
    EXPECT_GE(summary.steps, 3);
    const auto rows = reader.rankRows(summary.id, summary.steps);
    ASSERT_EQ(rows.size(), 4u);
    for (const RankRecord& row : rows)
        EXPECT_EQ(row.host, hostOf(row.rank));
    std::optional<nlohmann::json> end;
    std::istringstream lines(out.out);
    for (std::string line; std::getline(lines, line);) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.value("type", "") == "end")
            end = j;
    }
    ASSERT_TRUE(end.has_value()) << out.out;
    EXPECT_EQ((*end)["status"], "failed");
    EXPECT_GE((*end)["steps"].get<long long>(), 3);
    EXPECT_LE((*end)["steps"].get<long long>(), summary.steps);
}

} // namespace
} // namespace zerolab
