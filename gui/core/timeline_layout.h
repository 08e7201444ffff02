// Where each record of a StepTimeline goes on the timeline chart, without painting:
// the rows (per rank: compute lane, comm lane, and a memory strip when a category
// changes inside the step), the spans sorted per row, the links between equal-seq
// collectives of neighbouring ranks, and the memory split into categories that change
// (drawn) and categories that stay flat (named in a caption). Value type; any thread.
#pragma once

#include "storage/timeline.h"

#include <utility>
#include <vector>

namespace zerolab {

enum class TimelineRowKind { Compute = 0, Comm, Memory };

struct TimelineRow {
    int rank = 0;
    TimelineRowKind kind = TimelineRowKind::Compute;
    double y = 0; // the row's centre on the chart's value axis (rows are 1 apart)
};

// One category on one rank that changes inside the step: a step function, each
// sample's bytes held until the next sample.
struct TimelineMemorySeries {
    int rank = 0;
    MemCategory category = MemCategory::Activations;
    std::vector<std::pair<double, long long>> points; // (t_us, bytes), t ascending
};

// A category whose every sample, on every rank, keeps one value through the step.
struct TimelineFlatCategory {
    MemCategory category = MemCategory::CommBuffers;
    long long minBytes = 0; // over ranks
    long long maxBytes = 0;
};

class TimelineLayout {
public:
    TimelineLayout() = default;
    explicit TimelineLayout(const StepTimeline& timeline);

    long long step() const { return m_step; }
    int world() const { return m_world; }
    bool empty() const { return m_spans.empty(); }
    // The last end of any span or memory sample (us).
    double endUs() const { return m_endUs; }

    const std::vector<TimelineRow>& rows() const { return m_rows; }
    // Index into rows(), or -1 (no memory strip, rank out of range).
    int rowIndex(int rank, TimelineRowKind kind) const;
    // The row whose band [y - 0.5, y + 0.5] holds `y`, or -1 (the gap between ranks).
    int rowAt(double y) const;
    bool hasMemoryStrip() const { return !m_series.empty(); }

    // Sorted by (rank, lane, start_us).
    const std::vector<TimelineSpan>& spans() const { return m_spans; }
    int spanRow(int span) const { return m_spanRow[std::size_t(span)]; }
    // The span on `row` under time t (us): one that contains t (a collective's running
    // part before another's queued part, then the shorter), else the nearest within
    // `tolUs`. -1 for none.
    int spanAt(int row, double tUs, double tolUs = 0) const;
    // Every Collective span with the same seq as `span`, and the Wait spans that
    // waited for it, on every rank (span itself included, ascending); empty for a
    // span without a seq.
    std::vector<int> linked(int span) const;
    // Equal-seq collectives of consecutive ranks: the chart joins each pair by a line.
    const std::vector<std::pair<int, int>>& links() const { return m_links; }
    // Time each rank's compute thread spent in Wait spans (us), indexed by rank.
    const std::vector<double>& waitUs() const { return m_waitUs; }

    const std::vector<TimelineMemorySeries>& memorySeries() const { return m_series; }
    const std::vector<TimelineFlatCategory>& flatCategories() const { return m_flat; }
    // The largest sample of any changing series: the top of every memory strip.
    long long memoryMaxBytes() const { return m_memMax; }
    // The changing categories present on any rank, in MemCategory order.
    std::vector<MemCategory> changingCategories() const;
    // Bytes of each changing series of `rank` at time t (us): the last sample at or
    // before t; series that start after t are left out.
    std::vector<std::pair<MemCategory, long long>> memoryAt(int rank, double tUs) const;

private:
    long long m_step = 0;
    int m_world = 0;
    double m_endUs = 0;
    std::vector<TimelineRow> m_rows;
    std::vector<TimelineSpan> m_spans;
    std::vector<int> m_spanRow;
    std::vector<std::pair<int, int>> m_rowSpans; // per row: [first, last) into m_spans
    std::vector<std::pair<int, int>> m_links;
    std::vector<double> m_waitUs;
    std::vector<TimelineMemorySeries> m_series;
    std::vector<TimelineFlatCategory> m_flat;
    long long m_memMax = 0;
};

} // namespace zerolab
