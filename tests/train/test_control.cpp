// Control and checkpoints under real mpirun: SIGTERM stops after the current step with
// a checkpoint (exit 3, status stopped); resuming with the same N and stage continues the
// loss curve exactly; resuming with another N and stage re-partitions the optimizer state
// and continues it (as a new segment); corrupted or truncated checkpoints are refused.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/engine/fnv1a.h"
#include "storage/run_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class Control : public ::testing::Test {
protected:
    std::string config(int stage, int steps, int checkpoint_every) {
        nlohmann::json c = {{"train_batch_size", 12},
                            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
                            {"zero_optimization", {{"stage", stage}}},
                            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                            {"run",
                             {{"steps", steps},
                              {"log_every", 1},
                              {"threads", 1},
                              {"checkpoint_every", checkpoint_every},
                              {"checkpoint_dir", (m_dir / "ckpt").string()}}}};
        const fs::path p = m_dir / ("cfg-" + std::to_string(m_configs++) + ".json");
        std::ofstream(p) << c.dump();
        return p.string();
    }
    std::string db() const { return (m_dir / "runs.db").string(); }

    // Polls the store until the first run has `n` steps (or 60 s pass); returns its steps.
    // The file may not exist yet, or be mid-creation: those reads are retried.
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

    static std::map<long long, double> losses(const std::string& out) {
        std::map<long long, double> m;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);) {
            const auto j = nlohmann::json::parse(line);
            if (j["type"] == "step")
                m[j["step"].get<long long>()] = j["loss"].get<double>();
        }
        return m;
    }

    test::TempDir m_temp{"control"};
    const fs::path m_dir = m_temp.path();
    int m_configs = 0;
};

TEST_F(Control, SigtermStopsAfterTheStepWithACheckpoint) {
    test::BackgroundProcess job(
        test::mpirunTrain(2, {"--config", config(2, 1000000, 0), "--db", db()}));
    // Wait until a few steps are in the store, then signal the ranks (mpirun's children).
    const std::int64_t steps = waitForSteps(3);
    ASSERT_GE(steps, 3) << "no steps reached the store";
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    const auto r = job.finish();
    EXPECT_EQ(r.exit_code, 3) << r.err;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    EXPECT_EQ(run.status, RunStatus::Stopped);
    const auto cps = reader.checkpoints(run.id);
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps.front().step, run.steps);
    for (const char* f : {"meta.json", "model.bin", "optim-rank0.bin", "optim-rank1.bin"})
        EXPECT_TRUE(fs::exists(fs::path(cps.front().path) / f)) << f;
}

// A stop right after an interval's checkpoint (every step here) keeps that checkpoint: the
// stop does not write the same step a second time (two rows, two events, two "checkpoint at
// step" lines on stderr, issue 39).
TEST_F(Control, AStopAtACheckpointedStepRecordsItOnce) {
    test::BackgroundProcess job(
        test::mpirunTrain(2, {"--config", config(1, 1000000, 1), "--db", db()}));
    ASSERT_GE(waitForSteps(3), 3) << "no steps reached the store";
    ASSERT_EQ(test::runProcess({"pkill", "-TERM", "-P", std::to_string(job.pid())}).exit_code, 0);
    const auto r = job.finish();
    EXPECT_EQ(r.exit_code, 3) << r.err;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    std::map<long long, int> rows, events;
    for (const Checkpoint& c : reader.checkpoints(run.id))
        ++rows[c.step];
    for (const Event& e : reader.events(run.id))
        if (e.message.starts_with("checkpoint at step "))
            ++events[std::stoll(e.message.substr(19))];
    ASSERT_TRUE(rows.contains(run.steps)) << "the stop's step has no checkpoint";
    for (const auto& [step, n] : rows)
        EXPECT_EQ(n, 1) << "checkpoint rows of step " << step;
    for (const auto& [step, n] : events)
        EXPECT_EQ(n, 1) << "checkpoint events of step " << step;
    EXPECT_EQ(events.size(), rows.size());
    // The stored end says what stopped the run and how far it got of its steps.
    EXPECT_EQ(reader.run(run.id).end_message,
              "stopped by request (a signal: Ctrl-C or SIGTERM) after step " +
                  std::to_string(run.steps) + " of 1000000");
    EXPECT_EQ(run.planned_steps, 1000000);
}

TEST_F(Control, ResumeContinuesTheLossCurve) {
    // The reference: 6 steps straight, checkpoints at 3 and 6.
    const auto full =
        test::runProcess(test::mpirunTrain(2, {"--config", config(1, 6, 3), "--db", db()}));
    ASSERT_EQ(full.exit_code, 0) << full.err;
    const auto ref = losses(full.out);
    ASSERT_EQ(ref.size(), 6u);
    const fs::path ck = m_dir / "ckpt" / "run-1" / "step-3";
    ASSERT_TRUE(fs::exists(ck / "meta.json"));

    // Same N and stage: bit-for-bit the same curve.
    const auto same = test::runProcess(
        test::mpirunTrain(2, {"--config", config(1, 6, 0), "--db", db(), "--resume", ck.string()}));
    ASSERT_EQ(same.exit_code, 0) << same.err;
    auto got = losses(same.out);
    ASSERT_EQ(got.size(), 3u);
    for (long long s = 4; s <= 6; ++s)
        EXPECT_EQ(got[s], ref.at(s)) << "step " << s;

    // Another world size and stage: the optimizer state is re-partitioned and the curve
    // continues within the fp32 tolerance of docs/architecture.md.
    const auto other = test::runProcess(
        test::mpirunTrain(3, {"--config", config(3, 6, 0), "--db", db(), "--resume", ck.string()}));
    ASSERT_EQ(other.exit_code, 0) << other.err;
    got = losses(other.out);
    ASSERT_EQ(got.size(), 3u);
    for (long long s = 4; s <= 6; ++s)
        EXPECT_NEAR(got[s], ref.at(s), 1e-5 * ref.at(s)) << "step " << s;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto runs = reader.listRuns();
    ASSERT_EQ(runs.size(), 1u); // the resumes continued the same run
    const auto segs = reader.segments(runs.front().id);
    ASSERT_EQ(segs.size(), 3u);
    EXPECT_EQ(segs.back().world, 3);
    EXPECT_EQ(segs.back().stage, 3);
    EXPECT_EQ(segs.back().start_step, 4);
    EXPECT_EQ(runs.front().status, RunStatus::Finished);
}

// Apply & restart: every segment keeps the prediction made for its own settings, and
// zerolab-runs show --json puts it beside the ledger of the segment's last step, equal
// in every category and in traffic, on every rank.
TEST_F(Control, EachSegmentHoldsItsOwnPredictionBesideItsLedger) {
    const auto first =
        test::runProcess(test::mpirunTrain(2, {"--config", config(1, 4, 2), "--db", db()}));
    ASSERT_EQ(first.exit_code, 0) << first.err;
    const fs::path ck = m_dir / "ckpt" / "run-1" / "step-2";
    ASSERT_TRUE(fs::exists(ck / "meta.json"));
    // Another stage, world and accumulation: 12 = 1 x 4 x 3.
    nlohmann::json c = nlohmann::json::parse(std::ifstream(config(3, 4, 0)));
    c["gradient_accumulation_steps"] = 4;
    c["train_micro_batch_size_per_gpu"] = 1;
    const fs::path restart = m_dir / "restart.json";
    std::ofstream(restart) << c.dump();
    const auto second = test::runProcess(test::mpirunTrain(
        3, {"--config", restart.string(), "--db", db(), "--resume", ck.string()}));
    ASSERT_EQ(second.exit_code, 0) << second.err;

    const auto show = test::runTool("zerolab-runs", "--db " + db() + " show 1 --json");
    ASSERT_EQ(show.exit_code, 0) << show.err;
    const nlohmann::json j = nlohmann::json::parse(show.out);
    ASSERT_EQ(j["segments"].size(), 2u) << show.out;
    for (const auto& seg : j["segments"]) {
        ASSERT_TRUE(seg["predicted"].is_object()) << seg.dump();
        ASSERT_TRUE(seg["measured"].is_object()) << seg.dump();
        EXPECT_EQ(seg["measured"]["ranks"].size(), static_cast<std::size_t>(seg["world"]));
        for (const auto& rank : seg["measured"]["ranks"])
            for (auto name : kMemCategoryNames)
                EXPECT_EQ(rank[std::string(name)], seg["predicted"][std::string(name)])
                    << name << ", segment " << seg["index"] << ", rank " << rank["rank"];
        EXPECT_DOUBLE_EQ(seg["measured"]["traffic_bytes"].get<double>(),
                         seg["predicted"]["traffic_bytes"].get<double>())
            << "segment " << seg["index"];
    }
    // The prediction really is per segment: stage 3 at micro-batch 1 holds less.
    const auto& s0 = j["segments"][0]["predicted"];
    const auto& s1 = j["segments"][1]["predicted"];
    EXPECT_LT(s1["activations"].get<long long>(), s0["activations"].get<long long>());
    EXPECT_LT(s1["optim_m"].get<long long>(), s0["optim_m"].get<long long>());
    EXPECT_EQ(j["segments"][1]["grad_accum"], 4);
    EXPECT_EQ(j["segments"][1]["stage"], 3);
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Issue 29 §9: checkpoints are now hashed from the standard FNV-1a basis (meta.json
// format 4), so another FNV-1a tool agrees with meta.json; one written before (format 3,
// the old basis for its files and its own checksum) still verifies and resumes. The old
// one is made here as the old writer made it: the same files, meta.json rewritten at
// format 3 with every checksum from kFnv1aLegacyBasis.
TEST_F(Control, OldBasisCheckpointStillResumesAndNewOnesAreStandardFnv) {
    const auto full =
        test::runProcess(test::mpirunTrain(2, {"--config", config(1, 4, 2), "--db", db()}));
    ASSERT_EQ(full.exit_code, 0) << full.err;
    const fs::path ck = m_dir / "ckpt" / "run-1" / "step-2";
    nlohmann::json meta = nlohmann::json::parse(slurp(ck / "meta.json"));
    ASSERT_EQ(meta["format"], 5); // format 5: format 4's basis, every field of the shape
    const auto sumOf = [](const std::string& bytes, std::uint64_t basis) {
        return fnv1aHex(fnv1a(bytes.data(), bytes.size(), basis));
    };
    for (auto& [name, entry] : meta["files"].items())
        EXPECT_EQ(entry["fnv1a64"], sumOf(slurp(ck / name), 14695981039346656037ULL)) << name;

    meta.erase("fnv1a64");
    meta["format"] = 3;
    for (auto& [name, entry] : meta["files"].items())
        entry["fnv1a64"] = sumOf(slurp(ck / name), kFnv1aLegacyBasis);
    meta["fnv1a64"] = sumOf(meta.dump(), kFnv1aLegacyBasis);
    std::ofstream(ck / "meta.json", std::ios::binary | std::ios::trunc) << meta.dump(2) << "\n";
    const auto resumed = test::runProcess(
        test::mpirunTrain(2, {"--config", config(1, 4, 0), "--db", db(), "--resume", ck.string()}));
    EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(losses(resumed.out).size(), 2u) << resumed.out;

    // The same files claimed at format 4 (the standard basis) fail their checksums.
    meta["format"] = 4;
    meta.erase("fnv1a64");
    meta["fnv1a64"] = sumOf(meta.dump(), kFnv1aBasis);
    std::ofstream(ck / "meta.json", std::ios::binary | std::ios::trunc) << meta.dump(2) << "\n";
    const auto refused = test::runProcess(
        test::mpirunTrain(2, {"--config", config(1, 4, 0), "--db", db(), "--resume", ck.string()}));
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("checksum mismatch (corrupted)"), std::string::npos) << refused.err;
}

TEST_F(Control, CorruptedOrTruncatedCheckpointIsRefused) {
    const auto full =
        test::runProcess(test::mpirunTrain(2, {"--config", config(2, 3, 3), "--db", db()}));
    ASSERT_EQ(full.exit_code, 0) << full.err;
    const fs::path ck = m_dir / "ckpt" / "run-1" / "step-3";

    const fs::path shard = ck / "optim-rank1.bin";
    std::string bytes = slurp(shard);
    bytes[bytes.size() / 2] ^= 0x5a;
    std::ofstream(shard, std::ios::binary | std::ios::trunc) << bytes;
    auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(2, 6, 0), "--db", db(), "--resume", ck.string()}));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("checksum mismatch"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("optim-rank1.bin"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(shard), bytes); // nothing overwritten

    const fs::path model = ck / "model.bin";
    fs::resize_file(model, fs::file_size(model) - 100);
    const std::string truncated = slurp(model);
    r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(2, 6, 0), "--db", db(), "--resume", ck.string()}));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(model), truncated);
}

// Issue 17 §3: meta.json was neither checksummed nor range-checked. "step": -5 made a
// resume delete every stored step of the run; a huge step overflowed (stored INT64_MIN);
// a step beyond the run's last "finished" without training and deleted the steps after
// it. Each resume is now refused with exit 2 before the store is touched.
TEST_F(Control, EditedOrOutOfRangeCheckpointStepIsRefusedKeepingTheSteps) {
    const auto full =
        test::runProcess(test::mpirunTrain(2, {"--config", config(1, 4, 2), "--db", db()}));
    ASSERT_EQ(full.exit_code, 0) << full.err;
    const fs::path ck = m_dir / "ckpt" / "run-1" / "step-2";
    const fs::path meta = ck / "meta.json";
    const std::string original = slurp(meta);
    ASSERT_NE(original.find("\"step\": 2,"), std::string::npos) << original;
    auto storedSteps = [&] {
        RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
        return reader.steps(1, -1000, 1000);
    };
    ASSERT_EQ(storedSteps().size(), 4u);

    for (const char* step : {"-5", "9223372036854775807"}) {
        std::string edited = original;
        edited.replace(edited.find("\"step\": 2,"), 10, "\"step\": " + std::string(step) + ",");
        std::ofstream(meta, std::ios::binary | std::ios::trunc) << edited;
        const auto r = test::runProcess(test::mpirunTrain(
            2, {"--config", config(1, 4, 0), "--db", db(), "--resume", ck.string()}));
        EXPECT_EQ(r.exit_code, 2) << step << ": " << r.err;
        EXPECT_NE(r.err.find(meta.string()), std::string::npos) << r.err;
        const auto steps = storedSteps();
        ASSERT_EQ(steps.size(), 4u) << "step " << step;
        EXPECT_EQ(steps.front().step, 1);
        EXPECT_EQ(steps.back().step, 4);
    }

    std::ofstream(meta, std::ios::binary | std::ios::trunc) << original;
    const auto beyond = test::runProcess(test::mpirunTrain(
        2, {"--config", config(1, 4, 0), "--db", db(), "--resume", ck.string(), "--steps", "1"}));
    EXPECT_EQ(beyond.exit_code, 2) << beyond.err;
    EXPECT_NE(beyond.err.find("beyond the run's last step 1"), std::string::npos) << beyond.err;
    EXPECT_EQ(storedSteps().size(), 4u);
}

// Issue 17 §4: an invalid-UTF-8 --run-name made the trainer throw (json type_error 316)
// after the run row was created: the run stayed "running" without an end line. It is
// now refused before anything runs, exit 2 naming the argument, nothing stored.
TEST_F(Control, RunNameThatCannotBeStoredIsRefusedBeforeTheRun) {
    for (const std::string name :
         {std::string("bad \xff name"), std::string("two\nlines"), std::string(300, 'n')}) {
        const auto r = test::runProcess(
            test::mpirunTrain(1, {"--config", config(0, 2, 0), "--db", db(), "--run-name", name}));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("--run-name: "), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    if (fs::exists(db())) {
        RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
        EXPECT_TRUE(reader.listRuns().empty());
    }
}

} // namespace
} // namespace zerolab

namespace zerolab {
namespace {

TEST_F(Control, KilledRankFailsTheRunAndKeepsItsSteps) {
    test::BackgroundProcess job(
        test::mpirunTrain(3, {"--config", config(2, 1000000, 0), "--db", db()}));
    const std::int64_t steps = waitForSteps(3);
    ASSERT_GE(steps, 3);
    // Rank 1 is mpirun's second child.
    const auto kids = test::runProcess({"pgrep", "-P", std::to_string(job.pid())});
    std::istringstream pids(kids.out);
    std::string rank0, rank1;
    pids >> rank0 >> rank1;
    ASSERT_FALSE(rank1.empty()) << kids.out;
    ASSERT_EQ(test::runProcess({"kill", "-9", rank1}).exit_code, 0);
    const auto r = job.finish();
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("signal 9"), std::string::npos) << r.err; // mpirun's own message

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    EXPECT_EQ(run.status, RunStatus::Failed);
    bool named = false;
    for (const auto& e : reader.events(run.id))
        named |= e.level == EventLevel::Error && e.rank == 1 &&
                 e.message.find("rank 1 (pid " + rank1) != std::string::npos;
    EXPECT_TRUE(named);
    // Every completed step is there, whole: steps 1..last, each with 3 rank rows.
    const auto rows = reader.steps(run.id);
    ASSERT_GE(rows.size(), 3u);
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].step, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(reader.rankRows(run.id, rows.back().step).size(), 3u);
}

} // namespace
} // namespace zerolab

namespace zerolab {
namespace {

// The store's commands, as the GUI writes them: each is acknowledged and takes effect.
TEST_F(Control, StoreCommandsSteerTheRun) {
    test::BackgroundProcess job(
        test::mpirunTrain(2, {"--config", config(1, 1000000, 0), "--db", db()}));
    ASSERT_GE(waitForSteps(3), 3);
    RunStore store = RunStore::open(db());
    RunReader reader(std::move(store));
    const std::int64_t run = reader.listRuns().front().id;
    auto waitFor = [&](auto pred) {
        for (int i = 0; i < 300; ++i) {
            if (pred())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    };
    auto acked = [&](std::int64_t id) {
        for (const auto& c : reader.commands(run))
            if (c.id == id && !std::isnan(c.acked_at))
                return true;
        return false;
    };

    const auto lrCmd = reader.postCommand(run, CommandKind::SetLr, 1.25e-4);
    ASSERT_TRUE(waitFor([&] { return acked(lrCmd); }));
    ASSERT_TRUE(waitFor([&] {
        const auto s = reader.steps(run);
        return !s.empty() && std::abs(s.back().lr - 1.25e-4) < 1e-12;
    }));

    const auto ckCmd = reader.postCommand(run, CommandKind::Checkpoint);
    ASSERT_TRUE(waitFor([&] { return acked(ckCmd) && !reader.checkpoints(run).empty(); }));

    const auto pauseCmd = reader.postCommand(run, CommandKind::Pause);
    ASSERT_TRUE(waitFor([&] { return acked(pauseCmd); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto before = reader.summary(run).steps;
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    EXPECT_EQ(reader.summary(run).steps, before) << "steps advanced while paused";

    const auto resumeCmd = reader.postCommand(run, CommandKind::Resume);
    ASSERT_TRUE(waitFor([&] { return acked(resumeCmd) && reader.summary(run).steps > before; }));

    reader.postCommand(run, CommandKind::Stop);
    const auto r = job.finish();
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(reader.summary(run).status, RunStatus::Stopped);
}

} // namespace
} // namespace zerolab

namespace zerolab {
namespace {

// A hostfile launch (README, "Several machines"), with its slots all on localhost.
TEST_F(Control, HostfileLaunch) {
    const fs::path hosts = m_dir / "hosts";
    std::ofstream(hosts) << "localhost slots=3\n";
    std::vector<std::string> argv = {ZEROLAB_MPIEXEC,
                                     "--hostfile",
                                     hosts.string(),
                                     "-np",
                                     "3",
                                     std::string(ZEROLAB_BIN_DIR) + "/zerolab-train",
                                     "--config",
                                     config(3, 3, 0),
                                     "--db",
                                     db()};
    const auto r = test::runProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto run = reader.listRuns().front();
    EXPECT_EQ(run.world, 3);
    EXPECT_EQ(run.status, RunStatus::Finished);
    EXPECT_EQ(reader.rankRows(run.id, 3).size(), 3u);
}

} // namespace
} // namespace zerolab
