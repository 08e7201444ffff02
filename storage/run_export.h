// Export of one run from the store: CSV (the steps table, or the per-rank table) and
// JSON Lines in the metric line protocol of docs/architecture.md (run, step..., event..., end).
// The steps CSV opens with one comment line (kStepCsvComment), then the header.
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

// The steps CSV's first line, a comment ("# ..."; pandas: read_csv(f, comment="#")) that
// says which byte column is which: comm_bytes (the collectives' buffer sizes) and
// traffic_bytes (what a rank sends per optimizer step), docs/metrics.md.
extern const char* const kStepCsvComment;

// The CSV header columns of each table, in order.
std::vector<std::string> stepCsvColumns();
std::vector<std::string> rankCsvColumns();

// Streams the run to `out` in chunks (memory stays bounded for long runs).
// `table` only matters for CSV. Throws StoreError.
void exportRun(RunReader& reader, std::int64_t run_id, ExportFormat format, ExportTable table,
               std::ostream& out);

} // namespace zerolab
