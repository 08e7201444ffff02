// The order in which a network's forward and backward call its UnitAccess (network.h),
// with the compute between the calls, as data: what the engine's schedule sees of the
// model. The planner's step-time model and stage-3 gather count replay it; a model test
// checks it against the calls a real network makes. The kinds of compute are common to
// every family; each family lists its own calls (family.h).
#pragma once

#include "runtime/model/param_layout.h"
#include "runtime/model/recompute.h"

#include <array>
#include <string_view>
#include <vector>

namespace zerolab {

enum class UnitCallKind {
    Params,     // access.params(unit)
    Release,    // access.release(unit)
    Grads,      // access.grads(unit)
    GradsReady, // access.gradsReady(unit)
    Recomputing // access.recomputing(unit) (the model recomputes the unit's forward next)
};

// The compute that follows a call until the next one (ModelCompute::None: none).
enum class ModelCompute {
    None,
    EncoderForward, // token + position embedding
    BlockForward,   // one transformer block's forward
    FinalNormForward,
    HeadForward,  // the lm-head matmul and the softmax/cross-entropy
    HeadBackward, // the cross-entropy backward and the lm-head matmul backward
    FinalNormBackward,
    BlockRecompute, // the forward the recompute mode recomputes for one block
    BlockBackward,
    EncoderBackward
};

inline constexpr std::size_t kModelComputeCount = 10;
// Their names in a machine profile's "pieces" (machine_profile.h); None has none.
inline constexpr std::array<std::string_view, kModelComputeCount> kModelComputeNames = {
    "",
    "encoder_forward",
    "block_forward",
    "final_norm_forward",
    "head_forward",
    "head_backward",
    "final_norm_backward",
    "block_recompute",
    "block_backward",
    "encoder_backward"};

struct UnitCall {
    UnitCallKind kind = UnitCallKind::Params;
    int unit = 0;
    ModelCompute then = ModelCompute::None;
    bool operator==(const UnitCall&) const = default;
};

// Forward then backward of one micro-batch, as the family's network makes its calls
// (family.h): gpt2/gpt2_unit_calls.h for GPT-2.
std::vector<UnitCall> modelUnitCalls(const ParamLayout& layout, Recompute recompute);

} // namespace zerolab
