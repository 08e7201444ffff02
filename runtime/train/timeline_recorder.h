// One rank's record of a sampled step (storage/timeline.h), and the gather that turns
// every rank's record into the step's StepTimeline on rank 0. The compute lane holds the
// spans the trainer and TimelineAccess open (data, forward/backward/recompute per unit,
// optimizer, checkpoint) cut around the waits on collectives; the comm lane holds the
// collectives as the communicator reports them (CommTrace) and the control all-reduce.
// Memory: every ledger category at the step's start, then at each phase's end those that
// changed; a value holds until the next sample (preallocated buffers: one sample a step). Disarmed
// (on every step not sampled) every call is a branch. docs/metrics.md, "Step timeline", defines
// each span.
#pragma once

#include "runtime/comm/clock_sync.h"
#include "runtime/comm/comm_trace.h"
#include "runtime/comm/communicator.h"
#include "runtime/memory/ledger.h"
#include "storage/timeline.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace zerolab {

// Whether `step` gets a timeline: every timeline_every-th logged step (step % (log_every *
// timeline_every) == 0) and the segment's first steady step (its second, first_step + 1, or
// its only one); never when timeline_every is 0. Every rank decides alike.
bool isTimelineStep(long long step, long long first_step, long long last_step, int log_every,
                    int timeline_every);

// Spans and waits shorter than this are not recorded: a wait on a collective already done,
// the instant between two calls with nothing computed in between.
inline constexpr double kMinSpanUs = 1.0;

class TimelineRecorder final : public CommTrace {
public:
    using Clock = CommTrace::Clock;

    // Keeps references; `comm` reports to this recorder while it is armed.
    TimelineRecorder(Communicator& comm, const MemoryLedger& ledger);
    ~TimelineRecorder() override;
    TimelineRecorder(const TimelineRecorder&) = delete;
    TimelineRecorder& operator=(const TimelineRecorder&) = delete;

    // Collective, once before the first step: measures every rank's clock offset to rank
    // 0's (alignClocks), which collect() applies; returns it (filled on rank 0 only).
    const ClockAlignment& alignClocks();
    // Starts recording `step`, which starts now; the communicator reports to this recorder.
    void arm(long long step);
    // While armed: forgets what was recorded and starts the step again now (a control round
    // that paused: the step starts at its last round).
    void restart();
    // Drops what was recorded and stops recording (not collective).
    void disarm();
    bool armed() const { return m_armed; }
    // The micro-batch the following spans and collectives belong to (-1: none).
    void setMicro(int micro) { m_micro = micro; }

    // The compute lane's current span: open() closes the one open and opens `kind` now;
    // close() records it, cancel() drops it. A wait on a collective cuts it (the wait is
    // its own span).
    void open(SpanKind kind, int unit = -1);
    void close();
    void cancel() { m_open = false; }
    // The ledger's categories now (a phase boundary); kept where they changed.
    void sampleMemory();

    // A span of `kind` for the life of the scope: a compute-lane kind through open/close,
    // Control on the comm lane. Nothing while the recorder is disarmed.
    class Scope {
    public:
        Scope(TimelineRecorder& recorder, SpanKind kind);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        TimelineRecorder* m_rec;
        SpanKind m_kind;
        Clock::time_point m_begin;
    };

    // CommTrace (issued, waited, labelNext on the compute thread; ran on whichever runs it).
    int issued(Collective c, long long bytes, Clock::time_point at) override;
    void ran(int seq, Clock::time_point start, Clock::time_point end) override;
    void waited(int seq, Clock::time_point begin, Clock::time_point end) override;
    void labelNext(int unit) override;

    // Collective (every rank calls it, with no collective in flight): disarms, gathers
    // every rank's record to rank 0 and returns there the step's timeline, times in µs
    // since rank 0's step start on rank 0's clock (the offsets of alignClocks(); none
    // without it); nullopt on the other ranks.
    std::optional<StepTimeline> collect();

    // One span or memory sample as recorded and gathered: this rank's steady clock in ns.
    struct RawSpan {
        std::int32_t kind, unit, micro, collective, seq, pad;
        std::int64_t bytes, issue_ns, start_ns, end_ns;
    };
    struct RawMemory {
        std::int32_t category, pad;
        std::int64_t bytes, t_ns;
    };

private:
    void clear(Clock::time_point start);
    void record(SpanKind kind, int unit, Clock::time_point begin, Clock::time_point end);
    void sample(bool all);

    Communicator& m_comm;
    const MemoryLedger& m_ledger;
    ClockAlignment m_clocks;
    bool m_armed = false;
    long long m_step = 0;
    std::int64_t m_startNs = 0;
    int m_micro = -1;
    int m_nextUnit = -1;
    // The compute lane's open span, if any.
    bool m_open = false;
    SpanKind m_openKind = SpanKind::Forward;
    int m_openUnit = -1;
    Clock::time_point m_openBegin;

    std::vector<RawSpan> m_spans; // compute lane and control (compute thread only)
    std::vector<RawMemory> m_memory;
    std::array<long long, kMemCategoryCount> m_lastMemory{};
    std::mutex m_collectivesMutex;      // ran() comes from the progress thread
    std::vector<RawSpan> m_collectives; // indexed by seq
};

} // namespace zerolab
