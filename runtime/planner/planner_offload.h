// ZeRO-Offload in the forecast: which model states leave the device for host memory or
// NVMe, per rank and per node, and the PCIe traffic that costs; and its --explain lines
// with where DeepSpeed's estimators differ. Internal to the planner.
#pragma once

#include "runtime/planner/planner_layout.h"
#include "runtime/text/message.h"

#include <vector>

namespace zerolab {

// Moves the offloaded categories of sp.per_rank (already the stage's model states) into
// sp.offloaded and fills host/NVMe bytes, per node, and the PCIe traffic. `padded` is
// the flat buffer length at this N. Nothing moves where the stage cannot offload.
void applyOffload(const PlanInput& in, const StateBytes& b, std::int64_t padded, StagePlan& sp);

// True when the input asks for an offload that this stage does.
bool offloadApplies(const PlanInput& in, int stage);

// The explain lines of the offload (empty when none applies): what moves where, the
// device/host/NVMe totals per rank and node, PCIe per step, and DeepSpeed's estimator
// for the same input with why it differs.
std::vector<Message> offloadExplainLines(const Plan& p, const StagePlan& sp, ByteUnit unit);

} // namespace zerolab
