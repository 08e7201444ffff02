// RunWriter -> RunReader round trips on a real file: every field of steps and rank
// rows, incremental reads, segments and rewinds, summaries, events, checkpoints,
// commands, tags and notes, deletion, lost-run marking and change detection.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sys/wait.h>
#include <unistd.h>

using namespace zerolab;
using namespace zerolab::test;

namespace {

// NaN == NaN for the purposes of a round trip.
void expectSame(double a, double b, const char* what) {
    if (std::isnan(a) || std::isnan(b))
        EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << what << ": " << a << " vs " << b;
    else
        EXPECT_EQ(a, b) << what;
}

void expectSameStep(const StepRecord& got, const StepRecord& want) {
    EXPECT_EQ(got.step, want.step);
    expectSame(got.wall_time_s, want.wall_time_s, "wall_time_s");
    EXPECT_EQ(got.tokens, want.tokens);
    expectSame(got.loss, want.loss, "loss");
    expectSame(got.lr, want.lr, "lr");
    expectSame(got.grad_norm, want.grad_norm, "grad_norm");
    expectSame(got.tokens_per_s, want.tokens_per_s, "tokens_per_s");
    expectSame(got.mfu, want.mfu, "mfu");
    expectSame(got.step_ms, want.step_ms, "step_ms");
    expectSame(got.fwd_ms, want.fwd_ms, "fwd_ms");
    expectSame(got.bwd_ms, want.bwd_ms, "bwd_ms");
    expectSame(got.optim_ms, want.optim_ms, "optim_ms");
    expectSame(got.comm.allreduce_ms, want.comm.allreduce_ms, "allreduce_ms");
    expectSame(got.comm.reduce_scatter_ms, want.comm.reduce_scatter_ms, "reduce_scatter_ms");
    expectSame(got.comm.allgather_ms, want.comm.allgather_ms, "allgather_ms");
    expectSame(got.comm.broadcast_ms, want.comm.broadcast_ms, "broadcast_ms");
    expectSame(got.comm.exposed_ms, want.comm.exposed_ms, "exposed_ms");
    EXPECT_EQ(got.comm_bytes, want.comm_bytes);
    expectSame(got.busbw_gbps, want.busbw_gbps, "busbw_gbps");
}

void expectSameRank(const RankRecord& got, const RankRecord& want) {
    EXPECT_EQ(got.rank, want.rank);
    EXPECT_EQ(got.host, want.host);
    EXPECT_EQ(got.mem.bytes, want.mem.bytes);
    EXPECT_EQ(got.rss, want.rss);
    EXPECT_EQ(got.device_used, want.device_used);
    EXPECT_EQ(got.peak, want.peak);
    expectSame(got.comm.allreduce_ms, want.comm.allreduce_ms, "rank allreduce_ms");
    expectSame(got.comm.reduce_scatter_ms, want.comm.reduce_scatter_ms, "rank rs_ms");
    expectSame(got.comm.allgather_ms, want.comm.allgather_ms, "rank allgather_ms");
    expectSame(got.comm.broadcast_ms, want.comm.broadcast_ms, "rank broadcast_ms");
    expectSame(got.comm.exposed_ms, want.comm.exposed_ms, "rank exposed_ms");
}

class StoreRoundTrip : public ::testing::Test {
protected:
    std::string path() const { return m_dir.file("runs.db"); }
    RunWriter writer() { return RunWriter(RunStore::open(path())); }
    RunReader reader() { return RunReader(RunStore::open(path())); }

    TempDir m_dir;
};

} // namespace

TEST_F(StoreRoundTrip, StepsAndRankRows) {
    RunWriter w = writer();
    const RunInfo info = makeRunInfo("rt", 4);
    const std::int64_t id = w.createRun(info);
    EXPECT_EQ(w.beginSegment({0, 0, 4, 2, 2, 8, "start"}), 0);
    for (int i = 0; i < 10; ++i)
        w.appendStep(makeStep(i, 4));

    RunReader r = reader();
    const RunRecord run = r.run(id);
    EXPECT_EQ(run.info.name, info.name);
    EXPECT_EQ(run.info.command_line, info.command_line);
    EXPECT_EQ(run.info.config_json, info.config_json);
    EXPECT_EQ(run.info.params, info.params);
    EXPECT_EQ(run.info.tags, info.tags);
    EXPECT_EQ(run.status, RunStatus::Running);
    EXPECT_TRUE(std::isnan(run.ended_at));

    const auto steps = r.steps(id);
    ASSERT_EQ(steps.size(), 10u);
    for (int i = 0; i < 10; ++i)
        expectSameStep(steps[i], makeStep(i, 4));
    EXPECT_TRUE(std::isnan(steps[0].mfu)) << "NaN must be stored as NULL and read as NaN";

    const auto later = r.steps(id, 6);
    ASSERT_EQ(later.size(), 3u);
    EXPECT_EQ(later[0].step, 7);
    EXPECT_EQ(r.steps(id, 2, 3).size(), 3u);

    const auto rows = r.rankRows(id, 4);
    ASSERT_EQ(rows.size(), 4u);
    for (int k = 0; k < 4; ++k)
        expectSameRank(rows[k], makeStep(4, 4).ranks[k]);

    const auto series = r.rankSeries(id, 7);
    ASSERT_EQ(series.size(), 8u);
    EXPECT_EQ(series[0].step, 8);
    expectSameRank(series[5].rank, makeStep(9, 4).ranks[1]);
    EXPECT_EQ(r.rankSeries(id, 1, 3).size(), 8u);

    EXPECT_THROW(w.appendStep(makeStep(3, 4)), StoreError) << "duplicate step accepted";
    EXPECT_THROW(r.steps(id + 100), StoreError);
    EXPECT_THROW(r.run(id + 100), StoreError);
}

// Rank rows are inserted in multi-row statements of up to 64 rows: a world that needs
// several of them (and a remainder) must store every rank's values exactly.
TEST_F(StoreRoundTrip, ManyRanksSpanSeveralInserts) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("wide", 130));
    w.beginSegment({0, 0, 130, 3, 1, 1, "start"});
    for (int i = 0; i < 3; ++i)
        w.appendStep(makeStep(i, 130));
    RunReader r = reader();
    for (int i = 0; i < 3; ++i) {
        const auto rows = r.rankRows(id, i);
        ASSERT_EQ(rows.size(), 130u) << "step " << i;
        for (int k = 0; k < 130; ++k)
            expectSameRank(rows[k], makeStep(i, 130).ranks[k]);
    }
}

TEST_F(StoreRoundTrip, AppendBeforeSegmentIsAnError) {
    RunWriter w = writer();
    EXPECT_THROW(w.appendStep(makeStep(0, 1)), StoreError);
    w.createRun(makeRunInfo("x", 1));
    EXPECT_THROW(w.appendStep(makeStep(0, 1)), StoreError);
}

TEST_F(StoreRoundTrip, SummaryAndFinish) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("sum", 2));
    w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
    for (int i = 0; i < 7; ++i)
        w.appendStep(makeStep(i, 2)); // tokens/s 1000..1006
    RunReader r = reader();
    RunSummary live = r.summary(id);
    EXPECT_EQ(live.steps, 6);
    EXPECT_EQ(live.last_loss, makeStep(6, 2).loss);
    EXPECT_EQ(live.median_tokens_per_s, 1003.0);
    EXPECT_EQ(live.status, RunStatus::Running);

    w.appendStep(makeStep(7, 2)); // tokens/s 1000: median of 1000,1000,1001..1006 = 1002.5
    w.finish(RunStatus::Finished, "done");
    const RunSummary done = r.summary(id);
    EXPECT_EQ(done.status, RunStatus::Finished);
    EXPECT_EQ(done.steps, 7);
    EXPECT_EQ(done.median_tokens_per_s, 1002.5);
    EXPECT_GE(done.duration_s, 0.0);
    EXPECT_EQ(r.run(id).end_message, "done");
    EXPECT_THROW(w.finish(RunStatus::Running), StoreError);

    const std::int64_t second = w.createRun(makeRunInfo("other", 2));
    const auto all = r.listRuns();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].id, second) << "newest first";
    EXPECT_EQ(all[0].steps, -1);
    EXPECT_EQ(all[1].median_tokens_per_s, 1002.5);
}

TEST_F(StoreRoundTrip, SegmentsRewindOnResume) {
    std::int64_t id = 0;
    {
        RunWriter w = writer();
        id = w.createRun(makeRunInfo("seg", 2));
        w.beginSegment({0, 0, 2, 1, 1, 4, "start"});
        for (int i = 0; i < 10; ++i)
            w.appendStep(makeStep(i, 2));
        w.addCheckpoint({5, "/ckpt/5", 2, 1, 0});
        w.addCheckpoint({8, "/ckpt/8", 2, 1, 0});
        w.finish(RunStatus::Failed, "node died");
    }
    RunWriter w = writer();
    w.attachRun(id);
    EXPECT_EQ(w.beginSegment({0, 6, 4, 3, 2, 2, "resume"}), 1);
    for (int i = 6; i < 9; ++i)
        w.appendStep(makeStep(i, 4));

    RunReader r = reader();
    EXPECT_EQ(r.run(id).status, RunStatus::Running);
    const auto segs = r.segments(id);
    ASSERT_EQ(segs.size(), 2u);
    EXPECT_EQ(segs[1].start_step, 6);
    EXPECT_EQ(segs[1].world, 4);
    EXPECT_EQ(segs[1].stage, 3);
    EXPECT_EQ(segs[1].reason, "resume");
    const auto steps = r.steps(id);
    ASSERT_EQ(steps.size(), 9u);
    EXPECT_EQ(steps[5].segment, 0);
    EXPECT_EQ(steps[6].segment, 1);
    EXPECT_EQ(r.rankRows(id, 7).size(), 4u) << "the rewound step keeps the new world's rows";
    EXPECT_EQ(r.rankRows(id, 5).size(), 2u);
    const auto cps = r.checkpoints(id);
    ASSERT_EQ(cps.size(), 1u) << "checkpoints after the resume point are rewound";
    EXPECT_EQ(cps[0].path, "/ckpt/5");
    EXPECT_THROW(w.attachRun(id + 50), StoreError);
}

TEST_F(StoreRoundTrip, EventsIncremental) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("ev", 2));
    w.addEvent(EventLevel::Info, -1, "started");
    w.addEvent(EventLevel::Warn, 1, "slow rank");
    RunReader r = reader();
    const auto first = r.events(id);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[1].level, EventLevel::Warn);
    EXPECT_EQ(first[1].rank, 1);
    EXPECT_EQ(first[1].message, "slow rank");
    w.addEvent(EventLevel::Error, 0, "oom");
    const auto more = r.events(id, first.back().id);
    ASSERT_EQ(more.size(), 1u);
    EXPECT_EQ(more[0].level, EventLevel::Error);
}

TEST_F(StoreRoundTrip, CommandsRoundTrip) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("cmd", 2));
    RunReader r = reader();
    const std::int64_t pause = r.postCommand(id, CommandKind::Pause);
    const std::int64_t lr = r.postCommand(id, CommandKind::SetLr, 1e-4);
    auto pending = w.pendingCommands();
    ASSERT_EQ(pending.size(), 2u);
    EXPECT_EQ(pending[0].id, pause);
    EXPECT_EQ(pending[1].kind, CommandKind::SetLr);
    EXPECT_EQ(pending[1].arg, 1e-4);
    EXPECT_TRUE(std::isnan(pending[0].arg));
    w.ackCommand(pause, "paused at step 3");
    pending = w.pendingCommands();
    ASSERT_EQ(pending.size(), 1u);
    EXPECT_EQ(pending[0].id, lr);
    EXPECT_THROW(w.ackCommand(pause, "again"), StoreError);
    const auto all = r.commands(id);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_FALSE(std::isnan(all[0].acked_at));
    EXPECT_EQ(all[0].ack_message, "paused at step 3");
    EXPECT_TRUE(std::isnan(all[1].acked_at));
    w.finish(RunStatus::Stopped);
    EXPECT_THROW(r.postCommand(id, CommandKind::Stop), StoreError)
        << "commands to an ended run would never be acknowledged";
}

TEST_F(StoreRoundTrip, TagsNotesDeleteAndResolve) {
    RunWriter w = writer();
    const std::int64_t a = w.createRun(makeRunInfo("same", 2));
    w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
    w.appendStep(makeStep(0, 2));
    w.addEvent(EventLevel::Info, -1, "x");
    w.finish(RunStatus::Finished); // a running run is not deleted
    const std::int64_t b = w.createRun(makeRunInfo("same", 2));
    const std::int64_t c = w.createRun(makeRunInfo("unique", 2));
    RunReader r = reader();
    r.addTag(a, "zeta");
    r.addTag(a, "zeta");
    EXPECT_EQ(r.run(a).info.tags, (std::vector<std::string>{"baseline", "ci", "zeta"}));
    r.setTags(a, {"only"});
    EXPECT_EQ(r.run(a).info.tags, (std::vector<std::string>{"only"}));
    r.setNotes(a, "new notes");
    EXPECT_EQ(r.summary(a).notes, "new notes");
    EXPECT_THROW(r.setNotes(999, "x"), StoreError);

    EXPECT_EQ(r.resolveRun("unique"), c);
    EXPECT_EQ(r.resolveRun(std::to_string(b)), b);
    EXPECT_EQ(r.resolveRun("nope"), std::nullopt);
    EXPECT_THROW(r.resolveRun("same"), StoreError);

    r.deleteRun(a);
    EXPECT_THROW(r.run(a), StoreError);
    RunStore check = RunStore::open(path());
    for (const char* table : {"steps", "rank_steps", "events", "run_tags", "segments"})
        EXPECT_EQ(check.db().queryInt(std::string("SELECT count(*) FROM ") + table +
                                      " WHERE run_id = " + std::to_string(a)),
                  0)
            << table << " rows survived deleting their run";
    EXPECT_THROW(r.deleteRun(a), StoreError);
}

TEST_F(StoreRoundTrip, LostRunMarking) {
    // A pid that is certainly dead: a child that has exited and been reaped.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0)
        _exit(0);
    waitpid(child, nullptr, 0);

    char host[256] = {};
    gethostname(host, sizeof host - 1);
    RunInfo dead = makeRunInfo("dead", 2);
    dead.host = host;
    dead.pid = child;
    RunInfo alive = makeRunInfo("alive", 2);
    alive.host = host;
    alive.pid = getpid();
    RunInfo remote = makeRunInfo("remote", 2);
    remote.host = "some-other-host";
    remote.pid = getpid();

    RunWriter w = writer();
    const std::int64_t deadId = w.createRun(dead);
    w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
    w.appendStep(makeStep(0, 2));
    const std::int64_t aliveId = w.createRun(alive);
    const std::int64_t remoteId = w.createRun(remote);
    const std::int64_t doneId = w.createRun(dead);
    w.finish(RunStatus::Finished);

    RunReader r = reader();
    EXPECT_TRUE(r.markLostRuns(3600).empty()) << "fresh heartbeats are never lost";
    const auto lost = r.markLostRuns(-1); // every heartbeat counts as stale
    EXPECT_EQ(lost, (std::vector<std::int64_t>{deadId, remoteId}));
    EXPECT_EQ(r.run(deadId).status, RunStatus::Lost);
    EXPECT_FALSE(std::isnan(r.run(deadId).ended_at));
    EXPECT_EQ(r.summary(deadId).steps, 0);
    EXPECT_EQ(r.run(aliveId).status, RunStatus::Running) << "its process is alive";
    EXPECT_EQ(r.run(doneId).status, RunStatus::Finished);
}

// A stalled run (rank_watch.h): running -> stalled with its reason -> running again when
// the collective completes -> stalled -> failed when the job ends. A stalled run whose
// process is gone is lost like a running one.
TEST_F(StoreRoundTrip, StalledRunLifecycle) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("stall", 3));
    w.markStalled("stall: rank 1 has not arrived");
    RunReader r = reader();
    EXPECT_EQ(r.run(id).status, RunStatus::Stalled);
    EXPECT_EQ(r.run(id).end_message, "stall: rank 1 has not arrived");
    EXPECT_EQ(r.listRuns().front().status, RunStatus::Stalled);
    r.postCommand(id, CommandKind::Stop); // the GUI's banner can still reach rank 0
    w.markUnstalled();
    EXPECT_EQ(r.run(id).status, RunStatus::Running);
    EXPECT_EQ(r.run(id).end_message, "");
    w.markStalled("again");
    w.finish(RunStatus::Failed, "ended while stalled");
    EXPECT_EQ(r.run(id).status, RunStatus::Failed);
    w.markStalled("too late"); // only a running run can stall
    EXPECT_EQ(r.run(id).status, RunStatus::Failed);

    RunInfo gone = makeRunInfo("gone", 2);
    gone.host = "some-other-host";
    const std::int64_t goneId = w.createRun(gone);
    w.markStalled("stall");
    EXPECT_EQ(r.markLostRuns(-1), (std::vector<std::int64_t>{goneId}));
    EXPECT_EQ(r.run(goneId).status, RunStatus::Lost);
}

TEST_F(StoreRoundTrip, DataVersionSeesOtherConnections) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("dv", 1));
    w.beginSegment({0, 0, 1, 0, 1, 1, "start"});
    RunReader r = reader();
    const std::int64_t v0 = r.dataVersion();
    EXPECT_EQ(r.dataVersion(), v0) << "no commit, no change";
    w.appendStep(makeStep(0, 1));
    const std::int64_t v1 = r.dataVersion();
    EXPECT_NE(v1, v0);
    EXPECT_EQ(r.steps(id).size(), 1u);
}
