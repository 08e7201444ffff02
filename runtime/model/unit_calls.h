// The order in which a Gpt2 forward and backward call its UnitAccess (gpt2.h), with the
// compute between the calls, as data: what the engine's schedule sees of the model. The
// planner's step-time model and stage-3 gather count replay it; a model test checks it
// against the calls a real Gpt2 makes.
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
    HeadForward,  // the tied lm-head matmul and the softmax/cross-entropy
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

// Forward then backward of one micro-batch (gpt2.h's "Calls a Gpt2 makes"). The
// cross-entropy backward runs before backward's first call; it is counted with
// HeadBackward.
inline std::vector<UnitCall> gpt2UnitCalls(const ParamLayout& layout, Recompute recompute) {
    using K = UnitCallKind;
    using C = ModelCompute;
    const int U = layout.finalNormUnit();
    std::vector<UnitCall> calls = {{K::Params, 0, C::EncoderForward}, {K::Release, 0}};
    for (int u = 1; u < U; ++u)
        calls.insert(calls.end(), {{K::Params, u, C::BlockForward}, {K::Release, u}});
    calls.insert(calls.end(), {{K::Params, U, C::FinalNormForward},
                               {K::Release, U},
                               {K::Params, 0, C::HeadForward},
                               {K::Release, 0},
                               {K::Params, U},
                               {K::Params, 0},
                               {K::Grads, 0},
                               {K::Grads, U, C::HeadBackward},
                               {K::Release, 0, C::FinalNormBackward},
                               {K::Release, U},
                               {K::GradsReady, U}});
    for (int u = U - 1; u >= 1; --u) {
        calls.push_back({K::Params, u});
        if (recompute != Recompute::None)
            calls.push_back({K::Recomputing, u, C::BlockRecompute});
        calls.insert(calls.end(),
                     {{K::Grads, u, C::BlockBackward}, {K::Release, u}, {K::GradsReady, u}});
    }
    calls.insert(calls.end(), {{K::Grads, 0, C::EncoderBackward}, {K::GradsReady, 0}});
    return calls;
}

} // namespace zerolab
