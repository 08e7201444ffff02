// zerolab-sweep end to end, with real zerolab-train jobs under mpirun and a real store:
// pruning against the planner (never launched), a failing trial, a trial hung by a
// SIGSTOPped rank (killed at its timeout, the next trial starts), resume after the sweep
// process is SIGKILLed, and the shape of show --json.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/config/config.h"
#include "runtime/planner/planner.h"
#include "runtime/tune/sweep_driver.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/run_reader.h"
#include "storage/sweep_store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class SweepRuns : public ::testing::Test {
public:
    static nlohmann::json base(int micro) {
        return {{"train_micro_batch_size_per_gpu", micro},
                {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
                {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                {"run", {{"steps", 100}, {"threads", 1}}}};
    }

protected:
    std::string sweepFile(nlohmann::json axes, nlohmann::json extra = nlohmann::json::object()) {
        nlohmann::json s = {{"base", base(1)},    {"axes", std::move(axes)},
                            {"strategy", "grid"}, {"warmup_steps", 1},
                            {"measure_steps", 3}, {"trial_timeout_s", 120},
                            {"repeat_best", 0},   {"launcher", ZEROLAB_MPIEXEC}};
        for (const auto& [k, v] : extra.items())
            s[k] = v;
        const fs::path p = m_dir / "sweep.json";
        std::ofstream(p) << s.dump(2);
        return p.string();
    }
    std::string db() const { return (m_dir / "runs.db").string(); }
    test::ProcessResult sweep(std::vector<std::string> args) {
        args.insert(args.begin(), std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep");
        args.insert(args.end(), {"--db", db()});
        return test::runProcess(args);
    }
    nlohmann::json show(int id) {
        const auto r = sweep({"show", std::to_string(id), "--json"});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return nlohmann::json::parse(r.out);
    }
    static bool processGone(long pid) {
        if (::kill(static_cast<pid_t>(pid), 0) != 0)
            return true;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto paren = line.rfind(')');
        return paren != std::string::npos && line.size() > paren + 2 && line[paren + 2] == 'Z';
    }

    test::TempDir m_temp{"sweep"};
    const fs::path m_dir = m_temp.path();
};

// The planner's per-rank total for the nano base at this micro-batch, on one rank.
long long forecast(int micro) {
    const ConfigResult r = parseConfig(SweepRuns::base(micro), 1, "test");
    return predictRun(*r.config).total_bytes;
}

TEST_F(SweepRuns, PrunesWhatThePlannerSaysDoesNotFitAndNeverLaunchesIt) {
    const long long capacity = (forecast(2) + forecast(64)) / 2;
    ASSERT_LT(forecast(2), capacity);
    ASSERT_GT(forecast(64), capacity);
    const auto r =
        sweep({"run", sweepFile({{"world", {1}}, {"train_micro_batch_size_per_gpu", {1, 64, 2}}},
                                {{"capacity", capacity}})});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 pruned by the planner, 2 trials ran"), std::string::npos) << r.out;
    const nlohmann::json j = show(1);
    ASSERT_EQ(j["trials"].size(), 3u);
    const nlohmann::json& pruned = j["trials"][1];
    EXPECT_EQ(pruned["train_micro_batch_size_per_gpu"], 64);
    EXPECT_EQ(pruned["status"], "pruned");
    EXPECT_TRUE(pruned["run_id"].is_null());
    EXPECT_EQ(pruned["forecast_bytes"].get<long long>(), forecast(64));
    EXPECT_EQ(pruned["capacity_bytes"].get<long long>(), capacity);
    EXPECT_NE(pruned["reason"].get<std::string>().find("activations"), std::string::npos);
    // show --json: every trial carries its axes' values, status, tokens/s, peak, run id.
    for (int i : {0, 2}) {
        const nlohmann::json& t = j["trials"][i];
        EXPECT_EQ(t["status"], "finished");
        EXPECT_EQ(t["world"], 1);
        EXPECT_GT(t["tokens_per_s"].get<double>(), 0);
        EXPECT_GE(t["spread_tokens_per_s"].get<double>(), 0);
        EXPECT_GT(t["peak_bytes"].get<long long>(), 0);
        EXPECT_TRUE(t["run_id"].is_number_integer());
    }
    EXPECT_EQ(j["pruned"], 1);
    EXPECT_EQ(j["ran"], 2);
    EXPECT_TRUE(j["best"].is_object());
    // Only the two that fit ran: two runs in the store, both tagged with the sweep.
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto runs = reader.listRuns();
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs)
        EXPECT_EQ(run.tags, std::vector<std::string>{"sweep-1"});
    // The best config and the command that runs it.
    EXPECT_TRUE(fs::exists(m_dir / "sweeps" / "sweep-1" / "sweep-1-best.json"));
    EXPECT_NE(r.out.find("run it with: " + std::string(ZEROLAB_MPIEXEC) + " -np 1 "),
              std::string::npos)
        << r.out;
}

TEST_F(SweepRuns, FailingTrialIsRecordedWithItsReasonAndTheSweepGoesOn) {
    // 40 bytes of text: enough for a micro-batch of 1 (17 tokens), not of 4 (65).
    const fs::path text = m_dir / "tiny.txt";
    std::ofstream(text) << std::string(40, 'a');
    nlohmann::json b = base(1);
    b["data"] = {{"type", "text"}, {"path", text.string()}};
    const auto r =
        sweep({"run", sweepFile({{"world", {1}}, {"train_micro_batch_size_per_gpu", {4, 1}}},
                                {{"base", b}})});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = show(1);
    ASSERT_EQ(j["trials"].size(), 2u);
    EXPECT_EQ(j["trials"][0]["status"], "failed");
    EXPECT_NE(j["trials"][0]["reason"].get<std::string>().find("fewer than one global batch"),
              std::string::npos)
        << j["trials"][0]["reason"];
    EXPECT_EQ(j["trials"][1]["status"], "finished");
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const RunRecord failed = reader.run(j["trials"][0]["run_id"].get<std::int64_t>());
    EXPECT_EQ(failed.status, RunStatus::Failed);
    EXPECT_EQ(reader.summary(failed.id).tags, std::vector<std::string>{"sweep-1"});
}

TEST_F(SweepRuns, HungTrialIsKilledAtItsTimeoutAndTheNextStarts) {
    // Rank 1 stops itself with SIGSTOP at step 2: the N = 2 trial hangs (rank 0 waits in a
    // collective forever); N = 1 has no rank 1 and runs.
    ::setenv("ZEROLAB_FAULT_STOP_RANK", "1:2", 1);
    const auto r = sweep({"run", sweepFile({{"world", {2, 1}}}, {{"trial_timeout_s", 10}})});
    ::unsetenv("ZEROLAB_FAULT_STOP_RANK");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = show(1);
    ASSERT_EQ(j["trials"].size(), 2u);
    const nlohmann::json& hung = j["trials"][0];
    EXPECT_EQ(hung["status"], "timeout");
    EXPECT_NE(hung["reason"].get<std::string>().find("killed at the trial timeout of 10 s"),
              std::string::npos);
    EXPECT_EQ(j["trials"][1]["status"], "finished");
    ASSERT_TRUE(hung["run_id"].is_number_integer());
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const RunRecord run = reader.run(hung["run_id"].get<std::int64_t>());
    // Failed: by rank 0's own watch (rank 1 stopped) or by the sweep after the kill.
    EXPECT_EQ(run.status, RunStatus::Failed);
    // The whole group went: rank 0 (its pid is the run's) is no longer running.
    EXPECT_TRUE(processGone(run.info.pid));
}

TEST_F(SweepRuns, ResumesAfterTheSweepProcessIsKilled) {
    const std::string file =
        sweepFile({{"world", {1}}, {"train_micro_batch_size_per_gpu", {1, 2}}});
    // Slow steps (1 s each) so that the first trial is still running when the sweep dies.
    ::setenv("ZEROLAB_FAULT_SLOW_RANK", "0:1000", 1);
    test::BackgroundProcess running(
        {std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep", "run", file, "--db", db()});
    ::unsetenv("ZEROLAB_FAULT_SLOW_RANK");
    std::int64_t launcher = -1;
    for (int i = 0; i < 600 && launcher < 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        try {
            // Once the trial runs and its run is in the store (it has logged a step).
            const auto trials = SweepStore(RunStore::open(db(), OpenMode::ReadOnly)).trials(1);
            const auto runs = RunReader(RunStore::open(db(), OpenMode::ReadOnly)).listRuns();
            if (!trials.empty() && trials[0].status == TrialStatus::Running && runs.size() == 1 &&
                runs[0].steps >= 1)
                launcher = trials[0].pid;
        } catch (const StoreError&) {
        }
    }
    ASSERT_GT(launcher, 0) << "the first trial never started";
    const long driver = running.pid();
    ::kill(running.pid(), SIGKILL);
    running.finish();
    // Issue 29 §4: the orphaned trial ran on unsupervised (it was still running here); its
    // launcher now gets SIGTERM when the sweep dies, and the job ends on its own.
    for (int i = 0; i < 600 && !processGone(launcher); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(processGone(launcher)) << "the trial runs on without its sweep";

    const auto r = sweep({"resume", "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("trial 0 was interrupted"), std::string::npos) << r.err;
    // The killed driver's claim on the sweep is taken over, naming it.
    EXPECT_NE(r.err.find("sweep 1: its driver pid " + std::to_string(driver) + " on "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("is gone; this one takes over"), std::string::npos) << r.err;
    EXPECT_TRUE(processGone(launcher));
    const nlohmann::json j = show(1);
    EXPECT_EQ(j["status"], "finished");
    ASSERT_EQ(j["trials"].size(), 2u);
    EXPECT_EQ(j["trials"][0]["status"], "finished");
    EXPECT_EQ(j["trials"][1]["status"], "finished");
    // Three runs: the interrupted one, ended (stopped by its SIGTERM, or failed), and the
    // two trials; none left running.
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto runs = reader.listRuns();
    ASSERT_EQ(runs.size(), 3u);
    int ended = 0;
    for (const auto& run : runs) {
        EXPECT_EQ(run.tags, std::vector<std::string>{"sweep-1"});
        EXPECT_NE(run.status, RunStatus::Running) << run.id;
        ended += run.status == RunStatus::Failed || run.status == RunStatus::Stopped;
    }
    EXPECT_EQ(ended, 1);
    EXPECT_FALSE(SweepStore(RunStore::open(db(), OpenMode::ReadOnly)).driver(1))
        << "the resume released the sweep";
}

TEST_F(SweepRuns, InvalidInputExitsTwoNamingTheFileAndPath) {
    std::ofstream(m_dir / "bad.json") << R"({"base": {}, "axes": {"world": ["two"]}})";
    const auto r = sweep({"run", (m_dir / "bad.json").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find((m_dir / "bad.json").string() + ": axes.world[0]: N must be an integer"),
              std::string::npos)
        << r.err;
    SweepStore(RunStore::open(db())); // an empty store
    const auto missing = sweep({"show", "7"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("sweep 7: no such sweep"), std::string::npos) << missing.err;
}

// The sweep file docs/tune.md shows, as written (its base micro-stage1.json, 3 warm-up and
// 10 measured steps; that base's scheduler warms up over 20), cut to the first value of
// each axis, without the bucket axes and repeats so that ctest stays fast (one trial):
// its trial runs and finishes.
TEST_F(SweepRuns, TheDocsExampleRunsAsWritten) {
    std::ifstream docs(std::string(ZEROLAB_SOURCE_DIR) + "/docs/tune.md");
    std::stringstream text;
    text << docs.rdbuf();
    const std::string md = text.str();
    const std::size_t section = md.find("## The sweep file");
    ASSERT_NE(section, std::string::npos);
    const std::size_t open = md.find("```json\n", section);
    ASSERT_NE(open, std::string::npos);
    const std::size_t begin = open + 8;
    nlohmann::json doc = nlohmann::json::parse(md.substr(begin, md.find("```", begin) - begin));
    ASSERT_EQ(doc["base"], "../resources/configs/micro-stage1.json");
    fs::create_directories(m_dir / "resources" / "configs");
    fs::create_directories(m_dir / "sweeps-here");
    fs::copy_file(std::string(ZEROLAB_SOURCE_DIR) + "/resources/configs/micro-stage1.json",
                  m_dir / "resources" / "configs" / "micro-stage1.json");
    nlohmann::json axes = nlohmann::json::object();
    for (const auto& [axis, values] : doc["axes"].items())
        if (!isBucketAxis(axis))
            axes[axis] = nlohmann::json::array({values[0]});
    doc["axes"] = axes;
    doc["repeat_best"] = 0;
    doc["launcher"] = ZEROLAB_MPIEXEC;
    const fs::path file = m_dir / "sweeps-here" / "micro-guided.json";
    std::ofstream(file) << doc.dump(2);
    const auto r = sweep({"run", file.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json j = show(1);
    EXPECT_EQ(j["status"], "finished");
    EXPECT_EQ(j["trials"][0]["status"], "finished") << j["trials"][0]["reason"];
}

// Every trial fails: the sweep ends failed (exit 1) with the reason, in show and in list.
TEST_F(SweepRuns, ASweepWhoseTrialsAllFailEndsFailedWithTheReason) {
    const fs::path text = m_dir / "tiny.txt";
    std::ofstream(text) << std::string(40, 'a');
    nlohmann::json b = base(1);
    b["data"] = {{"type", "text"}, {"path", text.string()}};
    const auto r =
        sweep({"run", sweepFile({{"train_micro_batch_size_per_gpu", {4, 8}}}, {{"base", b}})});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const nlohmann::json j = show(1);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_NE(j["message"].get<std::string>().find("fewer than one global batch"),
              std::string::npos)
        << j["message"];
    // --db after the subcommand (as above) and before it.
    const auto list =
        test::runProcess({std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep", "--db", db(), "list"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_NE(list.out.find("failed"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("no trial finished"), std::string::npos) << list.out;
}

// The best config says its N (train_batch_size = micro-batch x accumulation x N, as
// DeepSpeed infers it), so that zerolab-plan --config plans the N the trial ran at.
TEST_F(SweepRuns, TheBestConfigCarriesItsWorld) {
    nlohmann::json b = base(2);
    const SweepSpec spec = parseSweepJson(
        {{"base", b}, {"axes", {{"world", {3}}}}, {"strategy", "grid"}, {"repeat_best", 0}},
        (m_dir / "s.json").string());
    SweepStore store(RunStore::open(db()));
    const std::int64_t id = createSweep(store, spec);
    TrialRecord t = store.trials(id).at(0);
    t.status = TrialStatus::Finished;
    t.tokens_per_s = 1000;
    t.spread_tokens_per_s = 10;
    store.updateTrial(id, t);
    const auto best = writeBestConfig(store, id, "zerolab-train", m_dir.string());
    ASSERT_TRUE(best);
    EXPECT_EQ(loadConfigOrThrow(best->config_path, std::nullopt).batch.world, 3);
    const auto plan = test::runProcess(
        {std::string(ZEROLAB_BIN_DIR) + "/zerolab-plan", "--config", best->config_path});
    ASSERT_EQ(plan.exit_code, 0) << plan.err;
    EXPECT_NE(plan.out.find("N = 3"), std::string::npos) << plan.out;
}

} // namespace
} // namespace zerolab
