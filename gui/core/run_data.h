// What the GUI holds of one run: the run record, and the logged steps as columns
// (one QVector<double> per metric, so plots take them without copying row by row).
// Filled on the store worker thread, then handed to the UI thread by value.
#pragma once

#include "storage/records.h"

#include <QMetaType>
#include <QString>
#include <QVector>

#include <array>
#include <string>
#include <vector>

namespace zerolab {

// Per-step metrics in CSV column order. Step, WallTime and Tokens double as x axes.
enum class Metric : int {
    Step = 0,
    WallTime,
    Tokens,
    Loss,
    Lr,
    GradNorm,
    TokensPerS,
    Mfu,
    StepMs,
    FwdMs,
    BwdMs,
    OptimMs,
    AllreduceMs,
    ReduceScatterMs,
    AllgatherMs,
    BroadcastMs,
    ExposedMs,
    TrafficBytes,
    BusbwGbps,
    // TrafficBytes by link class: sent to ranks of this rank's host / of other hosts.
    WithinTrafficBytes,
    AcrossTrafficBytes,
};
inline constexpr int kMetricCount = 21;

struct MetricInfo {
    const char* key;   // CSV header and metric line name ("tokens_per_s")
    const char* label; // "Tokens/s"
    const char* unit;  // axis unit ("ms", "tokens/s", "" for none)
};
const MetricInfo& metricInfo(Metric m);
// The metric's label in the current language ("Step time").
QString metricLabel(Metric m);
// "Step time (ms)": the label with its unit, for axis titles.
QString metricAxisTitle(Metric m);

// Columns of logged steps, ascending by step. Unknown values are NaN.
struct StepColumns {
    std::array<QVector<double>, kMetricCount> columns;

    int size() const { return int(columns[0].size()); }
    bool isEmpty() const { return columns[0].isEmpty(); }
    const QVector<double>& operator[](Metric m) const { return columns[int(m)]; }
    QVector<double>& operator[](Metric m) { return columns[int(m)]; }
    void append(const std::vector<StepRecord>& steps);
    void append(const StepColumns& more);
    double last(Metric m) const { return isEmpty() ? kUnknown : (*this)[m].back(); }
};

// A whole run with more step numbers than this comes as a level of detail
// (RunReader::stepsLod) of kLodBuckets spans: a million steps would cost seconds to
// read and hundreds of megabytes to hold, for a plot a thousand pixels wide.
inline constexpr std::int64_t kFullDetailSteps = 20000;
// About two spans per pixel column of a plot card (half the window); each span gives at
// most two rows, its minima and its maxima.
inline constexpr std::int64_t kLodBuckets = 1000;

// The rank rows at the last logged step of one segment.
struct SegmentRanks {
    int segment = 0; // Segment::index
    std::int64_t step = -1;
    std::vector<RankRecord> ranks; // checked against the segment's world (rank_rows.h)
    std::string problem;           // what checkRankRows left out, with the run and step
};

// One answer of the store worker about a run. incremental: steps holds only
// steps after the caller's last one; otherwise everything.
struct RunChunk {
    std::int64_t runId = 0;
    bool incremental = false;
    // Whole-run chunks only: `steps` is a level of detail (StepLod: per span its minima
    // then its maxima; the run's last block as logged) rather than every step.
    bool lod = false;
    std::int64_t loggedSteps = 0; // steps logged, whatever `steps` holds
    RunRecord record;
    std::vector<Segment> segments;
    StepColumns steps;
    std::int64_t ranksStep = -1;   // the step of `ranks`, -1 when none
    std::vector<RankRecord> ranks; // checked against the step's world (rank_rows.h)
    std::string ranksProblem;      // what checkRankRows left out, with the run and step
    // Whole-run chunks only: one per segment that logged a step, in segment order.
    std::vector<SegmentRanks> segmentRanks;
    std::vector<Event> events;            // after the caller's last event id
    std::vector<long long> timelineSteps; // every step with a stored timeline, ascending
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::RunChunk)
Q_DECLARE_METATYPE(zerolab::StepColumns)
