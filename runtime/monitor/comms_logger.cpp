// The comms logger's trace, lines and table (deepspeed/utils/comms_logging.py).
#include "runtime/monitor/comms_logger.h"
#include "runtime/monitor/ds_text.h"
#include "storage/run_reader.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace zerolab {

namespace {

// timer.py's trim_mean(data, 0.1): drop round(10 %) from each end, mean of the rest.
double trimMean(std::vector<double> data) {
    const std::size_t n = data.size();
    if (n == 0)
        return 0;
    std::sort(data.begin(), data.end());
    const auto k = static_cast<std::size_t>(std::nearbyint(n * 0.1));
    if (2 * k >= n)
        return std::nan("");
    return std::accumulate(data.begin() + k, data.end() - k, 0.0) / double(n - 2 * k);
}

// DeepSpeed's message size of a collective whose whole buffer is `bytes`: one rank's
// part for all-gather and reduce-scatter, the buffer for the others.
double deepSpeedMessageBytes(Collective c, long long bytes, int world) {
    const bool per_rank_part = c == Collective::AllGather || c == Collective::ReduceScatter;
    return per_rank_part ? static_cast<double>(bytes) / world : static_cast<double>(bytes);
}

} // namespace

std::string_view deepSpeedOpName(Collective c) {
    switch (c) {
    case Collective::ReduceScatter:
        return "reduce_scatter_tensor";
    case Collective::AllGather:
        return "all_gather_into_tensor";
    case Collective::Broadcast:
        return "broadcast";
    case Collective::AllReduce:
        break;
    }
    return "all_reduce";
}

Bandwidth deepSpeedBandwidth(Collective c, double size, double ms, int world) {
    const double n = world;
    Bandwidth b;
    if (ms <= 0)
        return b;
    switch (c) {
    case Collective::AllGather:
    case Collective::ReduceScatter:
        size *= n;
        b.algbw_gbps = size / ms;
        b.busbw_gbps = size / ms * ((n - 1) / n);
        break;
    case Collective::AllReduce:
        b.algbw_gbps = size * 2 / ms;
        b.busbw_gbps = size / ms * (2 * (n - 1) / n);
        break;
    case Collective::Broadcast:
        b.algbw_gbps = size / ms;
        b.busbw_gbps = b.algbw_gbps;
        break;
    }
    b.algbw_gbps *= 8 / 1e6;
    b.busbw_gbps *= 8 / 1e6;
    return b;
}

std::string commLine(const CommRecord& r, int world) {
    const Bandwidth b = deepSpeedBandwidth(r.op, r.msg_bytes, r.ms, world);
    return "[Rank 0] comm op: " + r.name + " | time (ms): " + fixed2(r.ms) +
           " | msg size: " + dsSize(r.msg_bytes) + " | algbw (Gbps): " + fixed2(b.algbw_gbps) +
           " | busbw (Gbps): " + fixed2(b.busbw_gbps);
}

void CommsSummary::add(const CommRecord& r) {
    const Bandwidth b = deepSpeedBandwidth(r.op, r.msg_bytes, r.ms, m_world);
    if (!m_rows.contains(r.name))
        m_order.push_back(r.name);
    Row& row = m_rows[r.name][r.msg_bytes];
    row.op = r.op;
    row.count += 1;
    row.ms.push_back(r.ms);
    row.algbw.push_back(b.algbw_gbps);
    row.busbw.push_back(b.busbw_gbps);
    if (std::isfinite(r.wait_ms)) {
        row.split_ms.push_back(r.ms);
        row.wait_ms.push_back(std::clamp(r.wait_ms, 0.0, r.ms));
    }
}

std::vector<CommRecord> commRecordsOf(const StepTimeline& timeline, int rank) {
    std::vector<const TimelineSpan*> spans;
    std::map<int, double> lastStart; // seq -> the latest start on any rank
    for (const TimelineSpan& s : timeline.spans) {
        if (s.kind != SpanKind::Collective)
            continue;
        if (s.rank == rank)
            spans.push_back(&s);
        const auto [it, fresh] = lastStart.try_emplace(s.seq, s.start_us);
        if (!fresh)
            it->second = std::max(it->second, s.start_us);
    }
    std::stable_sort(spans.begin(), spans.end(),
                     [](const TimelineSpan* a, const TimelineSpan* b) { return a->seq < b->seq; });
    std::vector<CommRecord> out;
    out.reserve(spans.size());
    for (const TimelineSpan* s : spans)
        out.push_back({s->collective, std::string(deepSpeedOpName(s->collective)),
                       deepSpeedMessageBytes(s->collective, s->bytes, timeline.world),
                       (s->end_us - s->start_us) / 1e3,
                       (lastStart.at(s->seq) - s->start_us) / 1e3});
    return out;
}

StoredCommsSummary storedCommsSummary(RunReader& reader, std::int64_t run_id) {
    StoredCommsSummary out;
    CommsSummary summary(reader.run(run_id).info.world);
    for (long long step : reader.timelineSteps(run_id)) {
        const std::optional<StepTimeline> timeline = reader.timeline(run_id, step);
        if (!timeline)
            continue;
        ++out.sampled_steps;
        for (const CommRecord& r : commRecordsOf(*timeline, 0))
            summary.add(r);
    }
    out.table = summary.text();
    out.split = summary.splitText();
    return out;
}

CommsLogger::CommsLogger(CommsLoggerConfig config, int world)
    : m_config(std::move(config)), m_world(world), m_summary(world) {}

void CommsLogger::setInner(CommTrace* inner) {
    m_inner = inner == this ? nullptr : inner;
}

bool CommsLogger::profiled(Collective c) const {
    if (m_config.prof_all)
        return true;
    const std::string_view name = deepSpeedOpName(c);
    return std::find(m_config.prof_ops.begin(), m_config.prof_ops.end(), name) !=
           m_config.prof_ops.end();
}

int CommsLogger::issued(Collective c, long long bytes, Clock::time_point at) {
    Pending p;
    p.record.op = c;
    p.record.name = std::string(deepSpeedOpName(c));
    if (m_config.debug)
        p.record.name += m_label >= 0
                             ? " | [Caller Func: gather unit " + std::to_string(m_label) + "]"
                             : std::string(" | [Caller Func: zero_engine]");
    p.record.msg_bytes = deepSpeedMessageBytes(c, bytes, m_world);
    p.inner = m_inner;
    if (m_inner != nullptr) {
        if (m_label >= 0)
            m_inner->labelNext(m_label);
        p.inner_seq = m_inner->issued(c, bytes, at);
    }
    m_label = -1;
    std::lock_guard lock(m_mutex);
    m_pending.push_back(std::move(p));
    return static_cast<int>(m_pending.size()) - 1;
}

std::pair<CommTrace*, int> CommsLogger::finish(int seq, const double* ms) {
    std::lock_guard lock(m_mutex);
    if (seq < 0 || seq >= static_cast<int>(m_pending.size()))
        return {nullptr, -1};
    Pending& p = m_pending[seq];
    if (ms != nullptr) {
        p.record.ms = *ms;
        p.done = true;
    }
    return {p.inner, p.inner_seq};
}

void CommsLogger::ran(int seq, Clock::time_point start, Clock::time_point end) {
    const double ms = std::chrono::duration<double, std::milli>(end - start).count();
    if (const auto [inner, inner_seq] = finish(seq, &ms); inner != nullptr)
        inner->ran(inner_seq, start, end);
}

void CommsLogger::waited(int seq, Clock::time_point begin, Clock::time_point end) {
    if (const auto [inner, inner_seq] = finish(seq, nullptr); inner != nullptr)
        inner->waited(inner_seq, begin, end);
}

void CommsLogger::labelNext(int unit) {
    m_label = unit;
}

void CommsLogger::discard() {
    std::lock_guard lock(m_mutex);
    m_pending.clear();
}

std::vector<CommRecord> CommsLogger::take() {
    std::vector<Pending> pending;
    {
        std::lock_guard lock(m_mutex);
        pending.swap(m_pending);
    }
    std::vector<CommRecord> out;
    for (Pending& p : pending) {
        if (!p.done || !profiled(p.record.op))
            continue;
        m_summary.add(p.record);
        out.push_back(std::move(p.record));
    }
    return out;
}

std::string CommsLogger::summary() const {
    return m_summary.text();
}

std::string CommsSummary::text() const {
    constexpr std::size_t w = 20;
    std::string s = padRight("Comm. Op", w) + padRight("Message Size", w) + padRight("Count", w) +
                    padRight("Total Latency(ms)", w) + padRight("Avg Latency(ms)", w) +
                    padRight("tput_avg (Gbps)", w) + padRight("busbw_avg (Gbps)", w) + "\n";
    for (const std::string& name : m_order) {
        s += name + "\n";
        for (const auto& [size, row] : m_rows.at(name)) {
            const double total = std::accumulate(row.ms.begin(), row.ms.end(), 0.0);
            s += padRight(" ", w) + padRight(dsSize(size), w) +
                 padRight(std::to_string(row.count), w) + padRight(fixed2(total), w) +
                 padRight(fixed2(trimMean(row.ms)), w) + padRight(fixed2(trimMean(row.algbw)), w) +
                 padRight(fixed2(trimMean(row.busbw)), w) + "\n";
        }
    }
    return s;
}

std::string CommsSummary::splitText() const {
    constexpr std::size_t w = 20;
    std::string s;
    const auto mean = [](const std::vector<double>& v) {
        return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    };
    for (const std::string& name : m_order) {
        std::string rows;
        for (const auto& [size, row] : m_rows.at(name)) {
            if (row.split_ms.empty())
                continue;
            const double ms = mean(row.split_ms), wait = mean(row.wait_ms);
            const double transfer = ms - wait;
            const Bandwidth b = deepSpeedBandwidth(row.op, size, transfer, m_world);
            rows += padRight(" ", w) + padRight(dsSize(size), w) +
                    padRight(std::to_string(row.split_ms.size()), w) + padRight(fixed2(ms), w) +
                    padRight(fixed2(wait), w) + padRight(fixed2(transfer), w) +
                    padRight(fixed2(b.busbw_gbps), w) + "\n";
        }
        if (!rows.empty())
            s += name + "\n" + rows;
    }
    if (s.empty())
        return s;
    return padRight("Comm. Op", w) + padRight("Message Size", w) + padRight("Count", w) +
           padRight("Mean Latency(ms)", w) + padRight("Wait(ms)", w) + padRight("Transfer(ms)", w) +
           padRight("busbw_xfer (Gbps)", w) + "\n" + s;
}

} // namespace zerolab
