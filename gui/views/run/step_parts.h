// The step's parts as the Run view's breakdown stacks them (forward, backward, exposed
// communication, optimizer), measured and forecast, so that the two stand side by side and
// a forecast's miss shows in the part it is in (a reduce-scatter wait the model did not
// have is exposed communication, not "the step").
#pragma once

#include "gui/core/run_data.h"
#include "runtime/planner/step_time.h"

#include <array>

namespace zerolab {

// In the breakdown's order; milliseconds per step.
enum class StepPart : int { Forward = 0, Backward, Exposed, Optimizer };
inline constexpr int kStepPartCount = 4;

struct StepParts {
    std::array<double, kStepPartCount> ms{}; // NaN: no value
    int steps = 0;                           // measured: the steps the medians are of
    double operator[](StepPart p) const { return ms[std::size_t(p)]; }
};

// Each part's median over the rows of `steps` whose step number is in [fromStep, toStep)
// (a level of detail's rows as they come); NaN values are skipped.
StepParts measuredParts(const StepColumns& steps, double fromStep, double toStep);

// The forecast's parts from its replayed step: forward, backward with its recompute and the
// optimizer from rank 0's compute lane (the engine's own kernels in the phase they run in,
// as the runtime measures them), exposed communication its comm_exposed_s.
StepParts forecastParts(const StepTimeForecast& forecast);

} // namespace zerolab
