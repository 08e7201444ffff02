// Export of a run's step timelines as Chrome trace-event JSON (zerolab-runs export
// --format trace), which Perfetto (ui.perfetto.dev) and chrome://tracing open: one
// process per rank, one thread per lane (0 compute, 1 comm), complete events for the
// spans, counters for the memory samples, flows linking each collective across ranks.
#pragma once

#include "storage/run_reader.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace zerolab {

// An inclusive range of steps; either end may be open.
struct StepRange {
    long long first = LLONG_MIN;
    long long last = LLONG_MAX;
    bool contains(long long step) const { return step >= first && step <= last; }
};

// "A:B", "A:", ":B" or "A" (one step), A <= B, non-negative integers; nullopt otherwise.
std::optional<StepRange> parseStepRange(const std::string& text);

// Writes the timelines of `steps` (sampled steps of the run, ascending) to `out`. Each
// step's times are real (µs on the run's common clock); the steps are laid one after
// another, each starting kTraceStepGapUs after the previous one's last event, with a
// global instant event "step N" at its start. Throws StoreError.
inline constexpr double kTraceStepGapUs = 1000;
void exportTrace(RunReader& reader, std::int64_t run_id, const std::vector<long long>& steps,
                 std::ostream& out);

} // namespace zerolab
