// The reference chapter's slips (docs/architecture.md, "The chapter's errata"), evaluated at a
// plan's psi and N so that its claims stand next to the correct sums. Internal to the planner.
#pragma once

#include "runtime/planner/planner.h"

#include <vector>

namespace zerolab {

// The chapter's mixed-precision stage-1 table (fp16 params 2, fp32 master 4, fp32
// grads 4, m 4, v 4 bytes per parameter) against its own rows and against the
// ZeRO paper; the accumulation slip (at grad_accumulation, or the chapter's 2 when it is
// 1); the "tens of seconds" of its stage-1 communication example; the param sync.
std::vector<Erratum> chapterErrata(const PlanInput& in, std::int64_t psi);

} // namespace zerolab
