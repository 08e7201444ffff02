// Full disks, a deleted store and a resume into another store, under real mpirun
// (issue 17 §2 and §3): a failed checkpoint write removes its partial folder, keeps the
// last good checkpoint, names the path and errno and follows run.on_checkpoint_error; a
// full or deleted store stops the run gracefully (exit 1, a checkpoint, an `end` line);
// a resume binds by the run's uuid and never touches another run.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs_mount.h"

#include "storage/run_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class DiskFaults : public ::testing::Test {
protected:
    std::string config(int steps, int checkpoint_every, const std::string& checkpoint_dir,
                       const std::string& on_error = "continue", int timeline_every = 10) {
        nlohmann::json c = {{"train_batch_size", 12},
                            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}}}}},
                            {"zero_optimization", {{"stage", 1}}},
                            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                            {"run",
                             {{"steps", steps},
                              {"log_every", 1},
                              {"threads", 1},
                              {"checkpoint_every", checkpoint_every},
                              {"checkpoint_dir", checkpoint_dir},
                              {"on_checkpoint_error", on_error},
                              {"timeline_every", timeline_every}}}};
        const fs::path p = m_dir / ("cfg-" + std::to_string(m_configs++) + ".json");
        std::ofstream(p) << c.dump();
        return p.string();
    }
    std::string db(const std::string& name = "runs.db") const { return (m_dir / name).string(); }

    // Polls `store` until its first run has `n` steps (or 60 s pass).
    static std::int64_t waitForSteps(const std::string& store, std::int64_t n) {
        std::int64_t steps = -1;
        for (int i = 0; i < 600 && steps < n; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            try {
                RunReader reader(RunStore::open(store, OpenMode::ReadOnly));
                const auto runs = reader.listRuns();
                if (!runs.empty())
                    steps = runs.front().steps;
            } catch (const StoreError&) {
            }
        }
        return steps;
    }

    static std::vector<nlohmann::json> lines(const std::string& out, const std::string& type) {
        std::vector<nlohmann::json> v;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);) {
            const auto j = nlohmann::json::parse(line);
            if (j["type"] == type)
                v.push_back(j);
        }
        return v;
    }
    static std::vector<std::string> errors(const std::string& out) {
        std::vector<std::string> v;
        for (const auto& e : lines(out, "event"))
            if (e["level"] == "error")
                v.push_back(e["message"].get<std::string>());
        return v;
    }

    test::TempDir m_temp{"disk"};
    const fs::path m_dir = m_temp.path();
    int m_configs = 0;
};

// A checkpoint is 1.45 MB here (nano, 2 ranks, stage 1): one fits on 2.2 MB, two do not.
constexpr std::size_t kCheckpointDisk = 2200 * 1024;

TEST_F(DiskFaults, FullCheckpointDiskWarnsAndGoesOnKeepingTheLastGoodOne) {
    test::TmpfsMount disk(kCheckpointDisk);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(6, 2, disk.path()), "--db", db()}));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto errs = errors(r.out);
    // Steps 4 and 6 (the final one) fail: warned again at each interval.
    ASSERT_EQ(errs.size(), 2u) << r.out;
    const fs::path run = fs::path(disk.path()) / "run-1";
    for (const std::string& e : errs) {
        EXPECT_NE(e.find(run.string()), std::string::npos) << e;
        EXPECT_NE(e.find("errno 28"), std::string::npos) << e;
        EXPECT_NE(e.find("run.on_checkpoint_error: continue"), std::string::npos) << e;
    }
    EXPECT_FALSE(fs::exists(run / "step-4.tmp"));
    EXPECT_FALSE(fs::exists(run / "step-6.tmp"));
    for (const char* f : {"meta.json", "model.bin", "optim-rank0.bin", "optim-rank1.bin"})
        EXPECT_TRUE(fs::exists(run / "step-2" / f)) << f;

    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto summary = reader.listRuns().front();
    EXPECT_EQ(summary.status, RunStatus::Finished);
    const auto cps = reader.checkpoints(summary.id);
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps.front().step, 2);

    // The kept checkpoint is whole: the run resumes from it.
    const auto resumed =
        test::runProcess(test::mpirunTrain(2, {"--config", config(3, 0, disk.path()), "--db", db(),
                                               "--resume", (run / "step-2").string()}));
    EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
}

TEST_F(DiskFaults, FullCheckpointDiskStopsTheRunUnderStopPolicy) {
    test::TmpfsMount disk(kCheckpointDisk);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(8, 2, disk.path(), "stop"), "--db", db()}));
    EXPECT_EQ(r.exit_code, 1) << r.err; // an I/O failure, never 2
    const auto errs = errors(r.out);
    ASSERT_FALSE(errs.empty()) << r.out;
    EXPECT_NE(errs.front().find("errno 28"), std::string::npos) << errs.front();
    EXPECT_NE(errs.front().find("run.on_checkpoint_error: stop"), std::string::npos);
    const auto end = lines(r.out, "end");
    ASSERT_EQ(end.size(), 1u) << r.out;
    EXPECT_EQ(end.front()["status"], "failed");
    EXPECT_EQ(end.front()["steps"], 4);
    EXPECT_FALSE(fs::exists(fs::path(disk.path()) / "run-1" / "step-4.tmp"));
    EXPECT_TRUE(fs::exists(fs::path(disk.path()) / "run-1" / "step-2" / "meta.json"));
    RunReader reader(RunStore::open(db(), OpenMode::ReadOnly));
    const auto summary = reader.listRuns().front();
    EXPECT_EQ(summary.status, RunStatus::Failed);
    EXPECT_EQ(summary.steps, 4);
}

TEST_F(DiskFaults, FullStoreDiskStopsGracefullyWithACheckpoint) {
    test::TmpfsMount disk(200 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const std::string store = disk.file("runs.db");
    const std::string ckpt = (m_dir / "ckpt").string();
    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(100000, 0, ckpt), "--db", store}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.find("cannot rollback"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("database or disk is full"), std::string::npos) << r.err;
    const auto end = lines(r.out, "end");
    ASSERT_EQ(end.size(), 1u) << r.out;
    EXPECT_EQ(end.front()["status"], "failed");
    const long long last = end.front()["steps"].get<long long>();
    EXPECT_LT(last, 100000);
    // A checkpoint of the last step trained, to resume from (into any store).
    EXPECT_TRUE(
        fs::exists(fs::path(ckpt) / "run-1" / ("step-" + std::to_string(last)) / "meta.json"));
    // Every committed step is still there and whole: steps 1..K, each with its rank rows.
    RunReader reader(RunStore::open(store, OpenMode::ReadOnly));
    const auto summary = reader.listRuns().front();
    ASSERT_GE(summary.steps, 1);
    EXPECT_LE(summary.steps, last);
    const auto steps = reader.steps(summary.id);
    ASSERT_EQ(static_cast<long long>(steps.size()), summary.steps);
    for (std::size_t i = 0; i < steps.size(); ++i)
        EXPECT_EQ(steps[i].step, static_cast<long long>(i + 1));
}

// Every step's timeline is stored by rank 0's writer thread (timeline_writer.h): a full
// disk there takes the same path as the step rows' (exit 1, a checkpoint, an `end` line),
// and every timeline kept belongs to a kept step and is whole.
TEST_F(DiskFaults, FullStoreDiskUnderTheTimelineWriterStopsGracefully) {
    // Room for several steps with their timelines (~50 KB of WAL each) before it fills.
    test::TmpfsMount disk(512 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const std::string store = disk.file("runs.db");
    const std::string ckpt = (m_dir / "ckpt").string();
    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(100000, 0, ckpt, "continue", 1), "--db", store}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("database or disk is full"), std::string::npos) << r.err;
    const auto end = lines(r.out, "end");
    ASSERT_EQ(end.size(), 1u) << r.out;
    EXPECT_EQ(end.front()["status"], "failed");
    const long long last = end.front()["steps"].get<long long>();
    EXPECT_TRUE(
        fs::exists(fs::path(ckpt) / "run-1" / ("step-" + std::to_string(last)) / "meta.json"));
    RunReader reader(RunStore::open(store, OpenMode::ReadOnly));
    const auto summary = reader.listRuns().front();
    ASSERT_GE(summary.steps, 1);
    const auto timelines = reader.timelineSteps(summary.id);
    ASSERT_FALSE(timelines.empty());
    for (std::size_t i = 0; i < timelines.size(); ++i) {
        EXPECT_EQ(timelines[i], static_cast<long long>(i + 1)); // in order, none missing
        const auto tl = reader.timeline(summary.id, timelines[i]);
        ASSERT_TRUE(tl);
        EXPECT_EQ(tl->world, 2);
        for (int rank = 0; rank < 2; ++rank) // both ranks' spans, the optimizer's included
            EXPECT_TRUE(std::any_of(tl->spans.begin(), tl->spans.end(),
                                    [&](const TimelineSpan& s) {
                                        return s.rank == rank && s.kind == SpanKind::Optimizer;
                                    }))
                << "step " << timelines[i] << ", rank " << rank;
    }
    EXPECT_LE(timelines.back(), summary.steps);
}

TEST_F(DiskFaults, DeletedStoreIsNoticedAndTheRunStops) {
    const std::string ckpt = (m_dir / "ckpt").string();
    test::BackgroundProcess job(
        test::mpirunTrain(2, {"--config", config(1000000, 0, ckpt), "--db", db()}));
    ASSERT_GE(waitForSteps(db(), 3), 3) << "no steps reached the store";
    fs::remove(db());
    const auto r = job.finish();
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("deleted or replaced"), std::string::npos) << r.err;
    const auto end = lines(r.out, "end");
    ASSERT_EQ(end.size(), 1u) << r.out;
    EXPECT_EQ(end.front()["status"], "failed");
    const long long last = end.front()["steps"].get<long long>();
    EXPECT_TRUE(
        fs::exists(fs::path(ckpt) / "run-1" / ("step-" + std::to_string(last)) / "meta.json"));
}

TEST_F(DiskFaults, ResumeIntoAnotherStoreNeverTouchesItsRuns) {
    const std::string ckpt = (m_dir / "ckpt").string();
    const auto a = test::runProcess(
        test::mpirunTrain(2, {"--config", config(6, 3, ckpt), "--db", db("a.db")}));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    const std::string uuid = lines(a.out, "run").front()["uuid"];
    // Store B holds an unrelated run 1, with steps past the checkpoint's step 3.
    const auto b =
        test::runProcess(test::mpirunTrain(2, {"--config", config(5, 0, (m_dir / "other").string()),
                                               "--db", db("b.db"), "--run-name", "unrelated"}));
    ASSERT_EQ(b.exit_code, 0) << b.err;
    std::vector<StepRecord> before;
    {
        RunReader reader(RunStore::open(db("b.db"), OpenMode::ReadOnly));
        before = reader.steps(1);
        ASSERT_EQ(before.size(), 5u);
    }

    const auto r = test::runProcess(
        test::mpirunTrain(2, {"--config", config(6, 0, ckpt), "--db", db("b.db"), "--resume",
                              (fs::path(ckpt) / "run-1" / "step-3").string()}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("does not hold: created it here as run 2"), std::string::npos) << r.err;

    RunReader reader(RunStore::open(db("b.db"), OpenMode::ReadOnly));
    const RunRecord unrelated = reader.run(1);
    EXPECT_EQ(unrelated.info.name, "unrelated");
    EXPECT_EQ(unrelated.status, RunStatus::Finished);
    EXPECT_NE(unrelated.info.uuid, uuid);
    const auto after = reader.steps(1);
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i)
        EXPECT_EQ(after[i].loss, before[i].loss) << "step " << after[i].step;
    EXPECT_EQ(reader.segments(1).size(), 1u);

    const RunRecord created = reader.run(2);
    EXPECT_EQ(created.info.uuid, uuid);
    const auto steps = reader.steps(2);
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps.front().step, 4);
    const auto segs = reader.segments(2);
    ASSERT_EQ(segs.size(), 1u);
    EXPECT_EQ(segs.front().start_step, 4);
    EXPECT_EQ(segs.front().reason, "resume");

    // Resumed again into store A, the checkpoint continues its own run there.
    const auto again = test::runProcess(
        test::mpirunTrain(2, {"--config", config(6, 0, ckpt), "--db", db("a.db"), "--resume",
                              (fs::path(ckpt) / "run-1" / "step-3").string()}));
    ASSERT_EQ(again.exit_code, 0) << again.err;
    RunReader ra(RunStore::open(db("a.db"), OpenMode::ReadOnly));
    EXPECT_EQ(ra.listRuns().size(), 1u);
    EXPECT_EQ(ra.segments(1).size(), 2u);
}

} // namespace
} // namespace zerolab
