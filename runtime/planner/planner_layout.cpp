// Bytes per parameter and sharding per stage (planner_layout.h): the single
// definition of the ZeRO paper's K and of the chapter's layout.
#include "runtime/planner/planner_layout.h"

namespace zerolab {

Convention conventionAt(Convention c, int stage) {
    return stage >= 2 ? Convention::ZeroPaper : c;
}

bool chapterUndefined(const PlanInput& in, int stage) {
    return in.convention == Convention::Chapter && stage >= 2;
}

StateBytes stateBytes(const PlanInput& in, int stage) {
    const bool mixed = in.precision == Precision::Bf16Mixed;
    StateBytes b;
    b.param = mixed ? 2 : 4;
    // The chapter accumulates fp32 gradients even under mixed precision, and so does
    // data_types.grad_accum_dtype "fp32".
    b.grad = conventionAt(in.convention, stage) == Convention::Chapter || in.grad_accum_fp32
                 ? 4
                 : b.param;
    b.master = mixed && in.master_weights ? 4 : 0;
    b.moment = 4;
    return b;
}

ShardedBy shardedBy(Convention c, int stage) {
    ShardedBy s;
    s.optim = stage >= 1;
    s.master = conventionAt(c, stage) == Convention::ZeroPaper && stage >= 1;
    s.grads = stage >= 2;
    s.params = stage >= 3;
    return s;
}

StateCoefficients stateCoefficients(const PlanInput& in, int stage) {
    const StateBytes b = stateBytes(in, stage);
    const ShardedBy s = shardedBy(in.convention, stage);
    StateCoefficients k;
    auto add = [&](int bytes, bool sharded) { (sharded ? k.sharded : k.replicated) += bytes; };
    add(b.param, s.params);
    add(b.grad, s.grads);
    add(b.master, s.master);
    add(2 * b.moment, s.optim);
    return k;
}

std::string_view dtypeName(int bytes_per_elem) {
    return bytes_per_elem == 2 ? "bf16" : "fp32";
}

} // namespace zerolab
