// The step-time side of zerolab-plan --time (and of the GUI's forecast): for each stage,
// the micro-batch that fits with the most tokens/s, its step time and parts beside its
// memory; the fastest of them; what was assumed. Built on plan() and predictStepTime().
#pragma once

#include "runtime/planner/planner.h"
#include "runtime/planner/step_time.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

struct TimedStage {
    int stage = 0;
    int micro_batch = 0;
    StagePlan memory;
    StepTimeForecast time;
    // With no micro-batch given: every micro-batch 1..largest_fitting was forecast (0: not
    // even 1 fits, so 1 alone was); -1 when the micro-batch was given.
    int largest_fitting = -1;
};

// The micro-batch search stops here: a larger one is not tried even where it would fit (a
// small model on a host's RAM fits thousands), and the report says so.
inline constexpr int kMaxMicroSearch = 256;

struct TimePlan {
    std::vector<TimedStage> stages; // 0-3, each at its best micro-batch (or the smallest)
    std::optional<int> fastest;     // index into stages of the fastest that fits
    std::vector<std::string> assumptions;
    std::string profile; // "calibrated 'box' of ..." or "preset a100-80 ..."
    int hosts = 1;
};

// A GPT shape for a bare parameter count: the GPT-3 family's (Brown et al. 2020, table
// 2.1; T = 2048, vocabulary 50257) of the nearest size.
ModelShape assumedShape(double params);

// The training config the step-time model reads for `in` at `stage` and micro-batch B.
TrainConfig timeConfig(const PlanInput& in, int stage, int micro_batch);

// Stages 0-3, each at in.micro_batch, or where that is 0 at every micro-batch from 1 to the
// largest that fits the stage's memory (up to kMaxMicroSearch), keeping the one with the most
// tokens/s. Throws PlanError.
TimePlan planTime(const PlanInput& in, const MachineProfile& profile, const ClusterShape& cluster);

std::string formatTimeTable(const TimePlan& t);
nlohmann::json toJson(const TimePlan& t);

} // namespace zerolab
