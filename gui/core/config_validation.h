// Validates the Setup tab's JSON text with the runtime's own config library (the
// validator behind zerolab-train --check-config) and maps each diagnostic to a
// line of the text, so the editor can mark it inline.
#pragma once

#include "runtime/config/config.h"
#include "runtime/planner/planner.h"
#include "storage/records.h"

#include "gui/core/json_path.h"

#include <QString>
#include <QVector>

#include <optional>

namespace zerolab {

struct EditorDiagnostic {
    bool error = true; // false: a warning
    QString path;      // JSON path ("zero_optimization.stage"), empty for the document
    QString message;
    int line = 0; // 1-based line of the text, 0 when it cannot be placed
};

struct ConfigValidation {
    std::optional<OrderedJson> doc;        // set when the text is valid JSON, keys as written
    std::optional<TrainConfig> config;     // set when the config has no error
    QVector<EditorDiagnostic> diagnostics; // syntax error, or every config finding
    int errorCount() const;
};

// Never throws. world: the launcher's -np, as --check-config --world passes it.
ConfigValidation validateConfigText(const QString& text, std::optional<int> world);

// The 1-based line where the last key of `path` appears (following the path's keys
// in order through the text), or 0. "optimizer.params.betas[1]" finds "betas".
int lineOfJsonPath(const QString& text, const QString& path);

// A stored run's or sweep trial's config (RunInfo::config_json, TrialRecord::config_json)
// resolved by the runtime at `world`; nullopt when it does not parse or resolve.
std::optional<TrainConfig> storedConfig(const std::string& json, int world);

// The planner's per-rank prediction for a stored run: predictRun of its resolved
// config when that parses, else from its bare psi / world / stage / precision.
// nullopt when neither is usable.
std::optional<StagePlan> plannedStageForRun(const RunInfo& info);

// The segment of `segments` (ordered by index) that holds `step`, or null.
const Segment* segmentAt(const std::vector<Segment>& segments, std::int64_t step);

// What a rank of `segment` was predicted to hold, per ledger category: the prediction
// stored when the segment started (predictRun of its own config), or, for a store
// written before predictions were kept, plannedStageForRun of the run for its first
// segment. nullopt where neither exists (a later segment of such a store).
std::optional<MemBreakdown> predictedMemory(const RunInfo& info, const Segment* segment);
// Its total.
std::optional<double> predictedTotal(const RunInfo& info, const Segment* segment);

} // namespace zerolab
