// The non-model-state pieces of the plan, each what the runtime allocates:
// activations (the model's activation_layout.h), comm buffers and workspace (the
// engine's engine_buffers.h for our own GPT-2, DeepSpeed's buckets otherwise),
// and the padded flat-buffer length (param_layout.h's gather units).
#include "runtime/model/activation_layout.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_layout.h"
#include "runtime/planner/zeropp_plan.h"

#include <algorithm>

namespace zerolab {

namespace {

// The shape sizes the flat buffer only when psi is the shape's own count; a
// --params that overrides it describes some other model, padded as one unit.
bool shapeSizesParams(const PlanInput& in, std::int64_t psi) {
    return in.shape && paramCount(*in.shape) == psi;
}

MemBreakdown engineBytes(const PlanInput& in, int stage) {
    return engineBufferPlan(in, stage).bytes();
}

} // namespace

EngineBufferPlan engineBufferPlan(const PlanInput& in, int stage) {
    const ParamLayout layout = makeParamLayout(*in.shape, in.world);
    EngineBufferPlan p = planEngineBuffers(layout, in.world, stage, in.precision, in.overlap_comm,
                                           in.grad_accum_fp32);
    addZeroPPBuffers(p, layout, zeroppOptions(in, stage));
    return p;
}

bool isEngineModel(const PlanInput& in, std::int64_t psi) {
    return in.convention == Convention::ZeroPaper && shapeSizesParams(in, psi);
}

ActivationBytes activationBytes(const ModelShape& shape, int micro_batch, int seq_len) {
    ActivationBytes a{};
    try {
        for (std::size_t m = 0; m < a.size(); ++m)
            a[m] = activationFootprint(shape, micro_batch, seq_len, static_cast<Recompute>(m))
                       .total(shape.n_layer);
    } catch (const std::invalid_argument& e) {
        throw PlanError(std::string("plan: activations: ") + e.what());
    }
    return a;
}

std::int64_t psiPadded(const PlanInput& in, std::int64_t psi, int world) {
    if (shapeSizesParams(in, psi))
        return makeParamLayout(*in.shape, world).padded_total;
    return (psi + world - 1) / world * world;
}

long long commBufferBytes(const PlanInput& in, int stage, std::int64_t psi) {
    if (isEngineModel(in, psi))
        return engineBytes(in, stage)[MemCategory::CommBuffers];
    const StateBytes b = stateBytes(in, stage);
    const std::int64_t padded = psiPadded(in, psi, in.world);
    long long bytes = std::min<std::int64_t>(in.reduce_bucket_elements, padded) * b.grad;
    if (stage == 3) {
        std::int64_t gather = 0;
        if (shapeSizesParams(in, psi)) {
            for (const UnitLayout& u : makeParamLayout(*in.shape, in.world).units)
                gather = std::max(gather, u.padded_elems);
        } else {
            gather = std::min<std::int64_t>(in.allgather_bucket_elements, psi);
        }
        bytes += gather * b.param;
    }
    return bytes;
}

long long workspaceBytes(const PlanInput& in, int stage, std::int64_t psi) {
    // Other models: GEMM and attention scratch is part of the activation estimate.
    return isEngineModel(in, psi) ? engineBytes(in, stage)[MemCategory::Workspace] : 0;
}

} // namespace zerolab
