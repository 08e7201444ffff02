// Reads one metric line (rank 0's stdout, the protocol of metric_lines.h) back into the
// few fields a live view follows. A line is untrusted: any process in the job can print
// a '{', so a value of the wrong type, an integer out of range or nesting deeper than
// kMaxMetricLineDepth is read as absent; nothing throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace zerolab {

// A run line nests 4 deep (its config); deeper values are dropped while parsing, so a
// hostile line cannot recurse on the stack when it is destroyed.
inline constexpr int kMaxMetricLineDepth = 16;

// The largest run id or step read: 2^53, exact in a JSON number; a count beyond it, or
// below 0, is read as absent.
inline constexpr std::int64_t kMaxMetricLineCount = std::int64_t{1} << 53;

enum class MetricLineType { Run, Step, Event, End, Other };

struct MetricLineFields {
    MetricLineType type = MetricLineType::Other; // Other: no or an unknown "type"
    std::optional<std::int64_t> run_id;          // run: "run_id"
    std::optional<std::int64_t> total_steps;     // run: "config"."run"."steps"
    std::optional<std::int64_t> step;            // step: "step"
    std::optional<double> wall_time_s;           // step: "wall_time_s"
    std::optional<double> tokens_per_s;          // step: "tokens_per_s"
    std::optional<double> loss;                  // step: "loss"
};

// nullopt when `line` is not one JSON object. Never throws.
std::optional<MetricLineFields> readMetricLine(std::string_view line);

} // namespace zerolab
