// Every rank's watch over its NCCL collectives (runtime/train/comm_watch.h): the pure
// decision, a non-zero rank aborting its communicators at the timeout or on an async
// error through a fake NCCL-like communicator, and the record the trainer's actions leave
// in the store. No clock: each look is given its time.
#include "runtime/train/comm_watch.h"

#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

// What a broken NCCL communicator shows a watch: async errors set by the test, and the
// aborts it receives. Its collectives are never called.
class FakeNccl final : public Communicator {
public:
    explicit FakeNccl(int rank) : m_rank(rank) {}
    int rank() const override { return m_rank; }
    int size() const override { return 4; }
    std::string host() const override { return "test"; }
    void allReduce(void*, std::size_t, CommDType) override {}
    void reduceScatter(void*, std::size_t, CommDType) override {}
    void allGather(void*, std::size_t, CommDType) override {}
    void broadcast(void*, std::size_t, CommDType, int) override {}
    CommHandle startAllReduce(void*, std::size_t, CommDType) override { return {}; }
    CommHandle startReduceScatter(void*, std::size_t, CommDType) override { return {}; }
    CommHandle startAllGather(void*, std::size_t, CommDType) override { return {}; }
    void sumDoubles(double*, std::size_t) override {}
    void broadcastBytes(void*, std::size_t, int) override {}
    void gatherBytes(const void*, std::size_t, void*) override {}
    void barrier() override {}
    CommStats takeStats() override { return {}; }

    bool abortable() const override { return true; }
    std::vector<std::string> asyncErrors() override { return errors; }
    void abortCollectives() override { ++aborts; }

    std::vector<std::string> errors;
    int aborts = 0;

private:
    int m_rank;
};

// What a watch did, in order.
struct Log {
    std::vector<std::string> calls;
    WaitDecision recorded;
    long long lastStep = -1;
};

CommWatchActions logged(Log& log, FakeNccl& comm) {
    return {[&log, &comm](const WaitDecision& d, long long last) {
                log.calls.push_back("record (aborts so far: " + std::to_string(comm.aborts) + ")");
                log.recorded = d;
                log.lastStep = last;
            },
            [&log, &comm] {
                log.calls.push_back("end (aborts so far: " + std::to_string(comm.aborts) + ")");
            }};
}

WatchOptions noThread(double timeout_s, OnStall on_stall = OnStall::Kill) {
    WatchOptions o;
    o.collective_timeout_s = timeout_s;
    o.on_stall = on_stall;
    o.period_ms = 0;
    return o;
}

CollectiveWait waitOf(int rank, double waited_s, double timeout_s) {
    CollectiveWait w;
    w.rank = rank;
    w.beacon = {7, 6, 0}; // inside collective #7
    w.waited_s = waited_s;
    w.timeout_s = timeout_s;
    return w;
}

TEST(CommWatchDecision, WithinTheTimeoutAndWithoutErrorsItWaits) {
    EXPECT_FALSE(decideCollectiveWait(waitOf(2, 1.9, 2)).abort);
    CollectiveWait outside = waitOf(2, 50, 2);
    outside.beacon = {7, 7, 0};
    EXPECT_FALSE(decideCollectiveWait(outside).abort);
}

TEST(CommWatchDecision, PastTheTimeoutUnderKillItAbortsAsAStall) {
    const WaitDecision d = decideCollectiveWait(waitOf(2, 2.1, 2));
    EXPECT_TRUE(d.abort);
    EXPECT_TRUE(d.stalled);
    EXPECT_EQ(d.reason, "stall: rank 2 has waited 2.1 s in collective #7 "
                        "(run.collective_timeout_s 2.0 s); run.on_stall is kill; rank 2 aborts "
                        "its NCCL communicators and ends the job");
}

TEST(CommWatchDecision, UnderFlagTheWaitGoesOn) {
    CollectiveWait w = waitOf(2, 500, 2);
    w.on_stall = OnStall::Flag;
    EXPECT_FALSE(decideCollectiveWait(w).abort);
}

TEST(CommWatchDecision, RankZeroLeavesTheTimeoutToItsRankWatch) {
    CollectiveWait w = waitOf(0, 500, 2);
    w.act_on_timeout = false;
    EXPECT_FALSE(decideCollectiveWait(w).abort);
}

TEST(CommWatchDecision, AnAsyncErrorAbortsWhateverTheTimeAndPolicy) {
    for (OnStall policy : {OnStall::Kill, OnStall::Flag}) {
        CollectiveWait w = waitOf(0, 0.01, 120);
        w.on_stall = policy;
        w.act_on_timeout = false;
        w.async_errors = {"the world communicator: remote process exited or there was a "
                          "network error; NET/IB : Got completion with error 12"};
        const WaitDecision d = decideCollectiveWait(w);
        EXPECT_TRUE(d.abort);
        EXPECT_FALSE(d.stalled);
        EXPECT_EQ(d.reason, "NCCL reported an error on rank 0 in collective #7: the world "
                            "communicator: remote process exited or there was a network error; "
                            "NET/IB : Got completion with error 12; rank 0 aborts its NCCL "
                            "communicators and ends the job");
    }
    CollectiveWait between = waitOf(3, 0, 120);
    between.beacon = {7, 7, 0};
    between.async_errors = {"a group communicator (member 1 of 2): unhandled system error"};
    EXPECT_TRUE(decideCollectiveWait(between).abort);
    EXPECT_NE(decideCollectiveWait(between).reason.find("on rank 3 between collectives: a group"),
              std::string::npos);
}

// The defect: only rank 0 had a watch, so a rank blocked in a NCCL collective whose
// peer had failed waited forever. Rank 2 now aborts at the timeout, recording first.
TEST(CommWatch, ANonZeroRankAbortsItsCollectivesAtTheTimeout) {
    FakeNccl comm(2);
    CollectiveBeacon beacon;
    Log log;
    CommWatch watch(comm, 2, beacon, noThread(2), logged(log, comm), 0);
    watch.stepDone(11, 40);
    beacon.enter();
    const std::int64_t since = beacon.read().since_ns;
    EXPECT_FALSE(watch.check(since + 1 * kSecond).abort);
    EXPECT_EQ(comm.aborts, 0);
    const WaitDecision d = watch.check(since + 3 * kSecond);
    EXPECT_TRUE(d.abort);
    EXPECT_TRUE(d.stalled);
    EXPECT_EQ(comm.aborts, 1);
    EXPECT_EQ(log.calls,
              (std::vector<std::string>{"record (aborts so far: 0)", "end (aborts so far: 1)"}));
    EXPECT_EQ(log.lastStep, 11);
    EXPECT_EQ(log.recorded.reason, d.reason);
    EXPECT_NE(d.reason.find("stall: rank 2 has waited 3.0 s in collective #1"), std::string::npos);
}

TEST(CommWatch, AnAsyncErrorAbortsAtOnceOnEveryRankIncludingZero) {
    for (int rank : {0, 1, 3}) {
        FakeNccl comm(rank);
        CollectiveBeacon beacon;
        Log log;
        CommWatch watch(comm, rank, beacon, noThread(120), logged(log, comm), 0);
        beacon.enter();
        const std::int64_t since = beacon.read().since_ns;
        EXPECT_FALSE(watch.check(since).abort);
        comm.errors = {"the world communicator: remote process exited or there was a network "
                       "error"};
        EXPECT_TRUE(watch.check(since).abort) << "rank " << rank;
        EXPECT_EQ(comm.aborts, 1);
        EXPECT_EQ(log.calls.size(), 2u);
    }
}

TEST(CommWatch, RankZerosTimeoutIsItsRankWatchs) {
    FakeNccl comm(0);
    CollectiveBeacon beacon;
    Log log;
    CommWatch watch(comm, 0, beacon, noThread(2), logged(log, comm), 0);
    beacon.enter();
    EXPECT_FALSE(watch.check(beacon.read().since_ns + 100 * kSecond).abort);
    EXPECT_EQ(comm.aborts, 0);
}

// The trainer's record: the run stalled, an error event naming the rank, then failed with
// the reason, written by a rank that does not own the run (observeRun), as rank 1's
// watch over rank 0 writes a stall.
TEST(CommWatch, TheTrainersRecordMarksTheRunFailedWithTheReason) {
    const test::TempDir dir("comm-watch");
    const std::string db = dir.file("runs.db");
    std::int64_t run = 0;
    {
        RunWriter w(RunStore::open(db));
        run = w.createRun(RunInfo{});
    }
    const CommWatchActions actions = storeAndExitActions(db, run, 2);
    CollectiveWait w = waitOf(2, 3, 2);
    const WaitDecision d = decideCollectiveWait(w);
    actions.record(d, 5);
    RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
    const RunRecord r = reader.run(run);
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_EQ(r.end_message, d.reason);
    const std::vector<Event> events = reader.events(run);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back().level, EventLevel::Error);
    EXPECT_EQ(events.back().rank, 2);
    EXPECT_EQ(events.back().message, d.reason);
}

} // namespace
} // namespace zerolab
