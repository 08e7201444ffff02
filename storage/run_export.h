// Export of one run from the store: CSV (the steps table, or the per-rank table) and
// JSON Lines in the metric line protocol of docs/architecture.md (run, step..., event..., end).
// Each CSV's first line is its header, nothing before it (a comment line there is what a
// CSV reader takes as the header); the columns are described in docs/metrics.md.
// Numbers are written in shortest round-trip form; unknown values are empty / null.
#pragma once

#include "storage/run_reader.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace zerolab {

enum class ExportFormat { Csv, Jsonl };
enum class ExportTable { Steps, Ranks }; // which table a CSV export holds

// The CSV header columns of each table, in order.
std::vector<std::string> stepCsvColumns();
std::vector<std::string> rankCsvColumns();

// Streams the run to `out` in chunks (memory stays bounded for long runs).
// `table` only matters for CSV. Throws StoreError.
void exportRun(RunReader& reader, std::int64_t run_id, ExportFormat format, ExportTable table,
               std::ostream& out);

} // namespace zerolab
