// The step timeline: what each rank did inside one sampled optimizer step, as
// timestamped intervals (spans) on two lanes per rank, compute and communication,
// plus the memory categories that really change inside the step, sampled at phase
// boundaries. Recorded by the trainer (runtime/train/), kept in the run store,
// drawn by the GUI's timeline chart, exported as Chrome trace-event JSON.
//
// Times are microseconds since the step's start on the run's common clock: each
// rank's steady clock shifted by its offset to rank 0's, measured at start-up
// (docs/metrics.md states the alignment error).
#pragma once

#include "storage/comm_traffic.h"
#include "storage/mem_category.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace zerolab {

enum class SpanKind : int {
    Forward = 0, // forward of one gather unit (unit set)
    Backward,    // backward of one gather unit (unit set), recompute excluded
    Recompute,   // the forward recomputed for one unit's backward (model.recompute)
    Optimizer,   // the optimizer step on this rank's partition
    Data,        // loading the next micro-batch
    Checkpoint,  // writing a checkpoint
    Collective,  // a collective in flight: issue_us (queued), start_us..end_us (running)
    Wait,        // the compute thread blocked on a collective (exposed time); seq links it
    Control,     // the per-step control all-reduce (stop/pause/commands agreement)
};
inline constexpr std::size_t kSpanKindCount = 9;
// Names in the store, the trace export and the GUI legend, indexed by SpanKind.
inline constexpr std::array<std::string_view, kSpanKindCount> kSpanKindNames = {
    "forward",    "backward",   "recompute", "optimizer", "data",
    "checkpoint", "collective", "wait",      "control"};

inline constexpr std::string_view spanKindName(SpanKind k) {
    return kSpanKindNames[static_cast<std::size_t>(k)];
}
inline std::optional<SpanKind> spanKindFromName(std::string_view name) {
    for (std::size_t i = 0; i < kSpanKindCount; ++i)
        if (kSpanKindNames[i] == name)
            return static_cast<SpanKind>(i);
    return std::nullopt;
}

// Each rank has two lanes: what its compute thread does, and what its communication
// does (collectives in flight, and the control all-reduce).
enum class TimelineLane : int { Compute = 0, Comm };
inline constexpr TimelineLane laneOf(SpanKind k) {
    return k == SpanKind::Collective || k == SpanKind::Control ? TimelineLane::Comm
                                                               : TimelineLane::Compute;
}

struct TimelineSpan {
    int rank = 0;
    SpanKind kind = SpanKind::Forward;
    int unit =
        -1; // gather unit (ParamLayout) for Forward/Backward/Recompute and unit gathers; -1 none
    int micro = -1; // micro-batch index in the step (0..accumulation-1); -1 none
    Collective collective = Collective::AllReduce; // Collective and Wait spans
    long long bytes = 0; // Collective: the collective's whole buffer, in bytes
    // Collective and Wait: the collective's number within the step on this rank,
    // 0, 1, ... in issue order. Every rank issues the same collectives in the same
    // order, so equal seq on two ranks is the same collective (the chart links them),
    // and a Wait's seq names the collective it waited for. -1 for other kinds.
    int seq = -1;
    double issue_us = 0; // Collective: when it was handed to the communicator (<= start_us)
    double start_us = 0;
    double end_us = 0;
};

// A category's bytes on one rank at one moment of the step (a phase boundary).
struct TimelineMemory {
    int rank = 0;
    double t_us = 0;
    MemCategory category = MemCategory::CommBuffers;
    long long bytes = 0;
};

// One sampled step of one run, every rank's spans and memory samples.
struct StepTimeline {
    long long step = 0;
    int world = 1;
    std::vector<TimelineSpan> spans; // any order; readers sort by (rank, start_us)
    // Any order. Every category is sampled at the step's start, then only where it changed:
    // a value holds until the category's next sample or the step's end (preallocated
    // buffers give one flat sample per step).
    std::vector<TimelineMemory> memory;
};

} // namespace zerolab
