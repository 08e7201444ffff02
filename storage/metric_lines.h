// The step and rank objects of the metric line protocol (docs/architecture.md, docs/metrics.md),
// in one place: rank 0 of zerolab-train prints them live, `zerolab-runs export
// --format jsonl` writes them back out of the store, so both speak the same format.
#pragma once

#include "storage/records.h"

#include <nlohmann/json.hpp>

namespace zerolab {

// A measured number, or null when it is unknown (NaN) or not finite.
nlohmann::json metricNumber(double v);

// One rank's object: rank, host, mem {category: bytes}, rss, device_used, peak and
// that rank's collective times.
nlohmann::json rankLine(const RankRecord& r);

// A `step` line; its `ranks` array holds s.ranks (empty when they were not read).
nlohmann::json stepLine(const StepRecord& s);

// j as text, on one line (indent -1) or indented. Invalid UTF-8 in stored or user text
// is replaced by U+FFFD rather than throwing, so that no string stops a line, a
// listing or an export from being written.
std::string jsonText(const nlohmann::json& j, int indent = -1);

} // namespace zerolab
