// Writes a run's logged steps as CSV: one header row of metric keys (run_data.h's
// order), one row per step, unknown values left empty.
#pragma once

#include "gui/core/run_data.h"

#include <QString>

namespace zerolab {

// Returns false and sets *error (naming the file) when the file cannot be written.
bool writeMetricsCsv(const QString& path, const StepColumns& steps, QString* error);

} // namespace zerolab
