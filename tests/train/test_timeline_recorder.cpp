// The timeline recorder and TimelineAccess on one rank, without MPI: the spans a model's
// UnitAccess calls make (recompute included), waits cutting the compute lane, memory kept
// where it changed, nothing while disarmed, and which steps are sampled.
#include "runtime/train/timeline_access.h"
#include "runtime/train/timeline_recorder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

namespace zerolab {
namespace {

// One rank alone: the untimed helpers the recorder's gather uses copy or do nothing.
class OneRank final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
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
    void gatherBytes(const void* in, std::size_t bytes, void* out) override {
        if (bytes)
            std::memcpy(out, in, bytes);
    }
    void barrier() override {}
    CommStats takeStats() override { return {}; }
};

// The engine's side: hands out a buffer and does nothing else.
class NoEngine final : public UnitAccess {
public:
    const float* params(int) override { return m_buf; }
    float* grads(int) override { return m_buf; }

private:
    float m_buf[4] = {};
};

// Work that takes measurably longer than kMinSpanUs.
void compute() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(30);
    while (std::chrono::steady_clock::now() < until) {
    }
}

struct Kinds {
    SpanKind kind;
    int unit;
};

std::vector<Kinds> computeLane(const StepTimeline& tl) {
    std::vector<Kinds> out;
    for (const TimelineSpan& s : tl.spans)
        if (laneOf(s.kind) == TimelineLane::Compute)
            out.push_back({s.kind, s.unit});
    return out;
}

class Recorder : public ::testing::Test {
protected:
    OneRank m_comm;
    MemoryLedger m_ledger;
    TimelineRecorder m_rec{m_comm, m_ledger};
    NoEngine m_engine;
    TimelineAccess m_access{m_engine, m_rec};
};

// Gpt2's calls (gpt2.h) for a model of units 0, 1 (one block) and 2 (final norm), with
// the backward recomputing the block: a Forward span per unit (the lm-head's use of unit
// 0 a second one), Backward per unit, Recompute before the block's Backward.
TEST_F(Recorder, UnitSpansFollowTheModelsCalls) {
    m_rec.arm(7);
    EXPECT_EQ(m_comm.trace(), &m_rec);
    m_rec.setMicro(0);
    {
        TimelineRecorder::Scope data(m_rec, SpanKind::Data);
        compute();
    }
    m_access.beginPass(false);
    for (int u : {0, 1, 2, 0}) {
        m_access.params(u);
        compute();
        m_access.release(u);
    }
    m_access.endPass();
    m_access.beginPass(true);
    m_access.params(2);
    m_access.params(0);
    m_access.grads(0);
    m_access.grads(2);
    compute(); // lm-head and final layernorm backward
    m_access.release(0);
    m_access.release(2);
    m_access.gradsReady(2);
    m_access.params(1);
    m_access.recomputing(1);
    compute(); // the block's forward again
    m_access.grads(1);
    compute();
    m_access.release(1);
    m_access.gradsReady(1);
    m_access.grads(0);
    compute(); // encoder backward
    m_access.gradsReady(0);
    m_access.endPass();

    const auto tl = m_rec.collect();
    ASSERT_TRUE(tl.has_value());
    EXPECT_EQ(tl->step, 7);
    EXPECT_EQ(tl->world, 1);
    EXPECT_EQ(m_comm.trace(), nullptr) << "collect disarms";
    const auto lane = computeLane(*tl);
    const std::vector<std::pair<SpanKind, int>> want = {
        {SpanKind::Data, -1},     {SpanKind::Forward, 0},  {SpanKind::Forward, 1},
        {SpanKind::Forward, 2},   {SpanKind::Forward, 0},  {SpanKind::Backward, 2},
        {SpanKind::Recompute, 1}, {SpanKind::Backward, 1}, {SpanKind::Backward, 0}};
    ASSERT_EQ(lane.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(lane[i].kind, want[i].first) << i;
        EXPECT_EQ(lane[i].unit, want[i].second) << i;
    }
    double last = 0;
    for (const TimelineSpan& s : tl->spans) {
        EXPECT_EQ(s.micro, 0);
        EXPECT_GE(s.start_us, last) << "compute spans do not overlap";
        EXPECT_GE(s.end_us - s.start_us, kMinSpanUs);
        last = s.end_us;
    }
}

// A wait cuts the span open on the compute lane; the wait names its collective's seq,
// kind and unit; the collective's issue, start and end are kept on the comm lane.
TEST_F(Recorder, AWaitCutsTheOpenSpan) {
    m_rec.arm(3);
    using Clock = TimelineRecorder::Clock;
    {
        TimelineRecorder::Scope opt(m_rec, SpanKind::Optimizer);
        compute();
        m_rec.labelNext(5);
        const auto issue = Clock::now();
        const int seq = m_rec.issued(Collective::AllGather, 4096, issue);
        EXPECT_EQ(seq, 0);
        compute();
        const auto start = Clock::now();
        compute();
        m_rec.ran(seq, start, Clock::now());
        const auto waitFrom = Clock::now();
        compute();
        m_rec.waited(seq, waitFrom, Clock::now());
        compute();
    }
    {
        TimelineRecorder::Scope control(m_rec, SpanKind::Control);
        compute();
    }
    const auto tl = m_rec.collect();
    ASSERT_TRUE(tl.has_value());
    std::vector<TimelineSpan> opt, wait, coll, ctrl;
    for (const TimelineSpan& s : tl->spans)
        (s.kind == SpanKind::Optimizer    ? opt
         : s.kind == SpanKind::Wait       ? wait
         : s.kind == SpanKind::Collective ? coll
                                          : ctrl)
            .push_back(s);
    ASSERT_EQ(opt.size(), 2u) << "the optimizer before and after the wait";
    ASSERT_EQ(wait.size(), 1u);
    ASSERT_EQ(coll.size(), 1u);
    ASSERT_EQ(ctrl.size(), 1u);
    EXPECT_EQ(ctrl[0].kind, SpanKind::Control);
    EXPECT_LE(opt[0].end_us, wait[0].start_us);
    EXPECT_LE(wait[0].end_us, opt[1].start_us);
    EXPECT_EQ(wait[0].seq, 0);
    EXPECT_EQ(wait[0].collective, Collective::AllGather);
    EXPECT_EQ(wait[0].unit, 5);
    EXPECT_EQ(coll[0].unit, 5);
    EXPECT_EQ(coll[0].bytes, 4096);
    EXPECT_LT(coll[0].issue_us, coll[0].start_us);
    EXPECT_LT(coll[0].start_us, coll[0].end_us);
    EXPECT_LE(coll[0].end_us, wait[0].start_us);
}

// Preallocated buffers stay flat: every category once, at the step's start. A change
// inside the step is kept where a phase ends.
TEST_F(Recorder, MemoryIsKeptWhereItChanges) {
    m_ledger.add(MemCategory::Params, 1000);
    m_rec.arm(2);
    {
        TimelineRecorder::Scope data(m_rec, SpanKind::Data);
        compute();
    }
    auto flat = m_rec.collect();
    ASSERT_TRUE(flat.has_value());
    EXPECT_EQ(flat->memory.size(), kMemCategoryCount);

    m_rec.arm(3);
    {
        TimelineRecorder::Scope data(m_rec, SpanKind::Data);
        m_ledger.add(MemCategory::CommBuffers, 512);
    }
    m_access.beginPass(false);
    m_ledger.sub(MemCategory::CommBuffers, 512);
    m_access.endPass();
    const auto changed = m_rec.collect();
    ASSERT_TRUE(changed.has_value());
    std::vector<long long> comm;
    for (const TimelineMemory& m : changed->memory)
        if (m.category == MemCategory::CommBuffers)
            comm.push_back(m.bytes);
    EXPECT_EQ(comm, (std::vector<long long>{0, 512, 0}));
    EXPECT_EQ(changed->memory.size(), kMemCategoryCount + 2);
}

TEST_F(Recorder, DisarmedRecordsNothing) {
    {
        TimelineRecorder::Scope data(m_rec, SpanKind::Data);
        compute();
    }
    m_access.beginPass(false);
    m_access.params(1);
    compute();
    m_access.endPass();
    EXPECT_EQ(m_comm.trace(), nullptr);
    m_rec.arm(4);
    const auto tl = m_rec.collect();
    ASSERT_TRUE(tl.has_value());
    EXPECT_TRUE(tl->spans.empty());
    m_rec.arm(5);
    EXPECT_EQ(m_comm.trace(), &m_rec);
    m_rec.disarm();
    EXPECT_EQ(m_comm.trace(), nullptr);
    EXPECT_FALSE(m_rec.armed());
}

TEST(TimelineSteps, FirstSteadyStepAndEveryKthLoggedStep) {
    auto sampled = [](long long first, long long last, int logEvery, int every) {
        std::vector<long long> out;
        for (long long s = first; s <= last; ++s)
            if (isTimelineStep(s, first, last, logEvery, every))
                out.push_back(s);
        return out;
    };
    EXPECT_EQ(sampled(1, 30, 1, 10), (std::vector<long long>{2, 10, 20, 30}));
    EXPECT_EQ(sampled(1, 9, 2, 2), (std::vector<long long>{2, 4, 8}));
    EXPECT_EQ(sampled(4, 12, 1, 5), (std::vector<long long>{5, 10}));
    EXPECT_EQ(sampled(7, 7, 1, 10), (std::vector<long long>{7})) << "a one-step segment";
    EXPECT_TRUE(sampled(1, 30, 1, 0).empty());
}

} // namespace
} // namespace zerolab
