// Rows, sorted spans, links and memory series of a step timeline; see timeline_layout.h.
#include "gui/core/timeline_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace zerolab {

namespace {

// Space between the last row of one rank and the first of the next, in rows.
constexpr double kRankGap = 0.45;

bool hasSeq(const TimelineSpan& s) {
    return s.seq >= 0 && (s.kind == SpanKind::Collective || s.kind == SpanKind::Wait);
}

// Where a span begins on the chart: a collective's queued part comes first.
double drawnStart(const TimelineSpan& s) {
    return s.kind == SpanKind::Collective ? std::min(s.issue_us, s.start_us) : s.start_us;
}

} // namespace

TimelineLayout::TimelineLayout(const StepTimeline& timeline)
    : m_step(timeline.step), m_world(std::max(0, timeline.world)), m_spans(timeline.spans) {
    // A record without a rank has no row.
    std::erase_if(m_spans, [](const TimelineSpan& s) { return s.rank < 0; });
    for (const auto& s : m_spans)
        m_world = std::max(m_world, s.rank + 1);
    for (const auto& m : timeline.memory)
        m_world = std::max(m_world, m.rank + 1);

    // Memory: per (category, rank) the samples in time order; a category that changes
    // on any rank is drawn, one flat on every rank is named.
    std::map<std::pair<int, int>, std::vector<std::pair<double, long long>>> samples;
    for (const auto& m : timeline.memory) {
        if (m.rank < 0)
            continue;
        samples[{int(m.category), m.rank}].emplace_back(m.t_us, m.bytes);
        m_endUs = std::max(m_endUs, m.t_us);
    }
    std::map<int, bool> changes;
    for (auto& [key, points] : samples) {
        std::stable_sort(points.begin(), points.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        bool flat = true;
        for (const auto& p : points)
            flat = flat && p.second == points.front().second;
        changes[key.first] = changes[key.first] || !flat;
    }
    for (auto& [key, points] : samples) {
        const auto category = static_cast<MemCategory>(key.first);
        if (changes[key.first]) {
            for (const auto& p : points)
                m_memMax = std::max(m_memMax, p.second);
            m_series.push_back({key.second, category, std::move(points)});
            continue;
        }
        const long long bytes = points.front().second;
        if (m_flat.empty() || m_flat.back().category != category)
            m_flat.push_back({category, bytes, bytes});
        m_flat.back().minBytes = std::min(m_flat.back().minBytes, bytes);
        m_flat.back().maxBytes = std::max(m_flat.back().maxBytes, bytes);
    }

    const int perRank = hasMemoryStrip() ? 3 : 2;
    for (int r = 0; r < m_world; ++r)
        for (int k = 0; k < perRank; ++k)
            m_rows.push_back({r, static_cast<TimelineRowKind>(k), r * (perRank + kRankGap) + k});

    std::stable_sort(m_spans.begin(), m_spans.end(),
                     [](const TimelineSpan& a, const TimelineSpan& b) {
                         const int la = int(laneOf(a.kind)), lb = int(laneOf(b.kind));
                         if (a.rank != b.rank)
                             return a.rank < b.rank;
                         if (la != lb)
                             return la < lb;
                         return drawnStart(a) < drawnStart(b);
                     });
    m_spanRow.reserve(m_spans.size());
    m_rowSpans.assign(m_rows.size(), {0, 0});
    m_waitUs.assign(std::size_t(m_world), 0.0);
    for (std::size_t i = 0; i < m_spans.size(); ++i) {
        const auto& s = m_spans[i];
        const int row =
            rowIndex(s.rank, laneOf(s.kind) == TimelineLane::Comm ? TimelineRowKind::Comm
                                                                  : TimelineRowKind::Compute);
        m_spanRow.push_back(row);
        auto& range = m_rowSpans[std::size_t(row)];
        if (range.first == range.second)
            range.first = int(i);
        range.second = int(i) + 1;
        m_endUs = std::max(m_endUs, s.end_us);
        if (s.kind == SpanKind::Wait)
            m_waitUs[std::size_t(s.rank)] += s.end_us - s.start_us;
    }

    // Links: equal seq on consecutive ranks, in rank order.
    std::map<int, std::vector<int>> bySeq;
    for (std::size_t i = 0; i < m_spans.size(); ++i)
        if (m_spans[i].kind == SpanKind::Collective && m_spans[i].seq >= 0)
            bySeq[m_spans[i].seq].push_back(int(i));
    for (const auto& [seq, members] : bySeq)
        for (std::size_t k = 1; k < members.size(); ++k)
            m_links.emplace_back(members[k - 1], members[k]);
}

int TimelineLayout::rowIndex(int rank, TimelineRowKind kind) const {
    const int perRank = hasMemoryStrip() ? 3 : 2;
    if (rank < 0 || rank >= m_world || int(kind) >= perRank)
        return -1;
    return rank * perRank + int(kind);
}

int TimelineLayout::rowAt(double y) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (y >= m_rows[i].y - 0.5 && y < m_rows[i].y + 0.5)
            return int(i);
    return -1;
}

int TimelineLayout::spanAt(int row, double tUs, double tolUs) const {
    if (row < 0 || row >= int(m_rowSpans.size()))
        return -1;
    const auto [first, last] = m_rowSpans[std::size_t(row)];
    // Best first: a span containing t (its running part over another's queued part,
    // then the shorter), else the nearest within the tolerance.
    int best = -1;
    int bestRank = 0;
    double bestKey = 0;
    for (int i = first; i < last; ++i) {
        const auto& s = m_spans[std::size_t(i)];
        if (drawnStart(s) - tolUs > tUs)
            break;
        if (tUs > s.end_us + tolUs)
            continue;
        const bool inside = tUs >= drawnStart(s) && tUs <= s.end_us;
        const bool running = tUs >= s.start_us && tUs <= s.end_us;
        const int rank = running ? 0 : inside ? 1 : 2;
        const double key = rank < 2
                               ? s.end_us - drawnStart(s)
                               : std::min(std::abs(tUs - drawnStart(s)), std::abs(tUs - s.end_us));
        if (best < 0 || rank < bestRank || (rank == bestRank && key < bestKey)) {
            best = i;
            bestRank = rank;
            bestKey = key;
        }
    }
    return best;
}

std::vector<int> TimelineLayout::linked(int span) const {
    std::vector<int> out;
    if (span < 0 || span >= int(m_spans.size()) || !hasSeq(m_spans[std::size_t(span)]))
        return out;
    const int seq = m_spans[std::size_t(span)].seq;
    for (std::size_t i = 0; i < m_spans.size(); ++i)
        if (hasSeq(m_spans[i]) && m_spans[i].seq == seq)
            out.push_back(int(i));
    return out;
}

std::vector<MemCategory> TimelineLayout::changingCategories() const {
    std::vector<MemCategory> out;
    for (const auto& s : m_series)
        if (std::find(out.begin(), out.end(), s.category) == out.end())
            out.push_back(s.category);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::pair<MemCategory, long long>> TimelineLayout::memoryAt(int rank,
                                                                        double tUs) const {
    std::vector<std::pair<MemCategory, long long>> out;
    for (const auto& s : m_series) {
        if (s.rank != rank || s.points.empty() || s.points.front().first > tUs)
            continue;
        auto it = std::upper_bound(s.points.begin(), s.points.end(), tUs,
                                   [](double t, const auto& p) { return t < p.first; });
        out.emplace_back(s.category, std::prev(it)->second);
    }
    return out;
}

} // namespace zerolab
