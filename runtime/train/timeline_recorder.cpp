// The timeline recorder: raw steady-clock nanoseconds while recording (no conversion on
// the hot path), converted on rank 0 after the gather. The gather is two untimed
// collectives: every rank's counts to every rank (a sum), then the records, each padded to
// the largest, to rank 0.
#include "runtime/train/timeline_recorder.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace zerolab {

namespace {

static_assert(std::is_trivially_copyable_v<TimelineRecorder::RawSpan>);
static_assert(std::is_trivially_copyable_v<TimelineRecorder::RawMemory>);

std::int64_t ns(CommTrace::Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

bool longEnough(CommTrace::Clock::time_point begin, CommTrace::Clock::time_point end) {
    return std::chrono::duration<double, std::micro>(end - begin).count() >= kMinSpanUs;
}

} // namespace

bool isTimelineStep(long long step, long long first_step, long long last_step, int log_every,
                    int timeline_every) {
    if (timeline_every <= 0)
        return false;
    const long long steady = first_step + 1 <= last_step ? first_step + 1 : first_step;
    return step == steady || step % (static_cast<long long>(log_every) * timeline_every) == 0;
}

TimelineRecorder::TimelineRecorder(Communicator& comm, const MemoryLedger& ledger)
    : m_comm(comm), m_ledger(ledger) {}

TimelineRecorder::~TimelineRecorder() {
    disarm();
}

const ClockAlignment& TimelineRecorder::alignClocks() {
    m_clocks = zerolab::alignClocks(m_comm);
    return m_clocks;
}

void TimelineRecorder::arm(long long step) {
    m_armed = true;
    m_step = step;
    clear(Clock::now());
    m_comm.setTrace(this);
}

void TimelineRecorder::disarm() {
    if (!m_armed)
        return;
    m_armed = false;
    m_comm.setTrace(nullptr);
}

void TimelineRecorder::restart() {
    if (m_armed)
        clear(Clock::now());
}

void TimelineRecorder::clear(Clock::time_point start) {
    m_startNs = ns(start);
    m_spans.clear();
    m_memory.clear();
    {
        std::lock_guard lock(m_collectivesMutex);
        m_collectives.clear();
    }
    m_open = false;
    m_micro = -1;
    m_nextUnit = -1;
    sample(true);
}

void TimelineRecorder::record(SpanKind kind, int unit, Clock::time_point begin,
                              Clock::time_point end) {
    if (!longEnough(begin, end))
        return;
    m_spans.push_back({static_cast<std::int32_t>(kind), unit, m_micro, 0, -1, 0, 0, ns(begin),
                       ns(begin), ns(end)});
}

void TimelineRecorder::open(SpanKind kind, int unit) {
    if (!m_armed)
        return;
    close();
    m_open = true;
    m_openKind = kind;
    m_openUnit = unit;
    m_openBegin = Clock::now();
}

void TimelineRecorder::close() {
    if (!m_armed || !m_open)
        return;
    record(m_openKind, m_openUnit, m_openBegin, Clock::now());
    m_open = false;
    // The end of a phase (not of a unit's part of one) is a memory boundary.
    if (m_openKind == SpanKind::Data || m_openKind == SpanKind::Optimizer ||
        m_openKind == SpanKind::Checkpoint)
        sample(false);
}

void TimelineRecorder::sampleMemory() {
    if (m_armed)
        sample(false);
}

void TimelineRecorder::sample(bool all) {
    const std::int64_t t = ns(Clock::now());
    const MemBreakdown& now = m_ledger.current();
    for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
        if (!all && now.bytes[c] == m_lastMemory[c])
            continue;
        m_memory.push_back({static_cast<std::int32_t>(c), 0, now.bytes[c], t});
        m_lastMemory[c] = now.bytes[c];
    }
}

TimelineRecorder::Scope::Scope(TimelineRecorder& recorder, SpanKind kind)
    : m_rec(recorder.armed() ? &recorder : nullptr), m_kind(kind) {
    if (!m_rec)
        return;
    if (laneOf(kind) == TimelineLane::Compute)
        m_rec->open(kind);
    else
        m_begin = Clock::now();
}

TimelineRecorder::Scope::~Scope() {
    if (!m_rec)
        return;
    if (laneOf(m_kind) == TimelineLane::Compute)
        m_rec->close();
    else
        m_rec->record(m_kind, -1, m_begin, Clock::now());
}

int TimelineRecorder::issued(Collective c, long long bytes, Clock::time_point at) {
    if (!m_armed)
        return -1;
    std::lock_guard lock(m_collectivesMutex);
    const int seq = static_cast<int>(m_collectives.size());
    m_collectives.push_back({static_cast<std::int32_t>(SpanKind::Collective), m_nextUnit, m_micro,
                             static_cast<std::int32_t>(c), seq, 0, bytes, ns(at), 0, 0});
    m_nextUnit = -1;
    return seq;
}

void TimelineRecorder::ran(int seq, Clock::time_point start, Clock::time_point end) {
    std::lock_guard lock(m_collectivesMutex);
    if (seq < 0 || seq >= static_cast<int>(m_collectives.size()))
        return;
    m_collectives[seq].start_ns = ns(start);
    m_collectives[seq].end_ns = ns(end);
}

void TimelineRecorder::waited(int seq, Clock::time_point begin, Clock::time_point end) {
    if (!m_armed || !longEnough(begin, end))
        return;
    if (m_open) { // the span open on the compute lane stops while the thread waits
        record(m_openKind, m_openUnit, m_openBegin, std::max(m_openBegin, begin));
        m_openBegin = std::max(m_openBegin, end);
    }
    RawSpan w{static_cast<std::int32_t>(SpanKind::Wait),
              -1,
              m_micro,
              0,
              seq,
              0,
              0,
              ns(begin),
              ns(begin),
              ns(end)};
    {
        std::lock_guard lock(m_collectivesMutex);
        if (seq >= 0 && seq < static_cast<int>(m_collectives.size())) {
            w.unit = m_collectives[seq].unit;
            w.collective = m_collectives[seq].collective;
        }
    }
    m_spans.push_back(w);
}

void TimelineRecorder::labelNext(int unit) {
    m_nextUnit = unit;
}

std::optional<StepTimeline> TimelineRecorder::collect() {
    close();
    sample(false);
    disarm();

    // This rank's record: spans (completed collectives included), then memory samples.
    std::vector<RawSpan> spans = m_spans;
    {
        std::lock_guard lock(m_collectivesMutex);
        for (const RawSpan& c : m_collectives)
            if (c.end_ns != 0)
                spans.push_back(c);
    }
    // Every rank's counts on every rank (one sum of zeros but for each rank's own slots),
    // so that all of them know the largest record without another round.
    const int world = m_comm.size();
    const int rank = m_comm.rank();
    std::vector<double> counts(2 * static_cast<std::size_t>(world), 0.0);
    counts[2 * rank] = static_cast<double>(spans.size());
    counts[2 * rank + 1] = static_cast<double>(m_memory.size());
    m_comm.sumDoubles(counts.data(), counts.size());
    auto count = [&](int r, int which) { return static_cast<std::int64_t>(counts[2 * r + which]); };
    std::int64_t largest = 0;
    for (int r = 0; r < world; ++r)
        largest = std::max(largest, count(r, 0) * static_cast<std::int64_t>(sizeof(RawSpan)) +
                                        count(r, 1) * static_cast<std::int64_t>(sizeof(RawMemory)));
    const bool root = rank == 0;

    std::vector<char> mine(static_cast<std::size_t>(largest));
    if (!spans.empty())
        std::memcpy(mine.data(), spans.data(), spans.size() * sizeof(RawSpan));
    if (!m_memory.empty())
        std::memcpy(mine.data() + spans.size() * sizeof(RawSpan), m_memory.data(),
                    m_memory.size() * sizeof(RawMemory));
    std::vector<char> all(root ? static_cast<std::size_t>(largest) * world : 0);
    m_comm.gatherBytes(mine.data(), mine.size(), root ? all.data() : nullptr);
    if (!root)
        return std::nullopt;

    StepTimeline tl;
    tl.step = m_step;
    tl.world = world;
    for (int r = 0; r < world; ++r) {
        const std::int64_t offset =
            static_cast<std::size_t>(r) < m_clocks.offset_ns.size() ? m_clocks.offset_ns[r] : 0;
        auto us = [&](std::int64_t t) { return static_cast<double>(t - offset - m_startNs) / 1e3; };
        const char* at = all.data() + static_cast<std::size_t>(largest) * r;
        for (std::int64_t i = 0; i < count(r, 0); ++i, at += sizeof(RawSpan)) {
            RawSpan s;
            std::memcpy(&s, at, sizeof s);
            tl.spans.push_back({r, static_cast<SpanKind>(s.kind), s.unit, s.micro,
                                static_cast<Collective>(s.collective), s.bytes, s.seq,
                                us(s.issue_ns), us(s.start_ns), us(s.end_ns)});
        }
        for (std::int64_t i = 0; i < count(r, 1); ++i, at += sizeof(RawMemory)) {
            RawMemory m;
            std::memcpy(&m, at, sizeof m);
            tl.memory.push_back({r, us(m.t_ns), static_cast<MemCategory>(m.category), m.bytes});
        }
    }
    return tl;
}

} // namespace zerolab
