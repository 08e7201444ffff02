// What the Run view draws of a long run: the whole-run level of detail (StepLod rows in
// StepColumns) with the range the user zoomed into refined from the store, and the step
// range a plot's visible x range asks for.
#pragma once

#include "gui/core/run_data.h"

#include <optional>
#include <utility>

namespace zerolab {

// The overview's rows before firstStep, then `detail` (steps firstStep..lastStep, or a
// little wider), then the overview's rows after lastStep.
StepColumns mergeDetail(const StepColumns& overview, const StepColumns& detail,
                        std::int64_t firstStep, std::int64_t lastStep);

// The steps behind x in [lower, upper] on the x axis `x` (Step, WallTime or Tokens, all
// ascending with the step), widened by one overview row on each side so the edges are
// drawn; nullopt when that covers the whole overview (nothing to refine).
std::optional<std::pair<std::int64_t, std::int64_t>>
visibleSteps(const StepColumns& overview, Metric x, double lower, double upper);

} // namespace zerolab
