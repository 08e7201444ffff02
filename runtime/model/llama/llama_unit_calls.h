// The calls a Llama network makes (llama.h), as data (unit_calls.h).
#pragma once

#include "runtime/model/param_layout.h"
#include "runtime/model/recompute.h"
#include "runtime/model/unit_calls.h"

#include <vector>

namespace zerolab {

// Forward then backward of one micro-batch (llama.h's "Calls a Llama makes"). Tied head:
// GPT-2's calls (the embedding gathered again for the lm head). Untied: lm_head lives in
// the final unit with the final norm, so one gather of it covers both; its compute pieces
// are then HeadForward and HeadBackward, which include the final norm's forward and
// backward (FinalNormForward/Backward do not occur). The cross-entropy backward runs
// before backward's first call; it is counted with HeadBackward.
inline std::vector<UnitCall> llamaUnitCalls(const ParamLayout& layout, Recompute recompute) {
    using K = UnitCallKind;
    using C = ModelCompute;
    const int U = layout.finalNormUnit();
    const bool tied = layout.shape.tied_head;
    std::vector<UnitCall> calls = {{K::Params, 0, C::EncoderForward}, {K::Release, 0}};
    for (int u = 1; u < U; ++u)
        calls.insert(calls.end(), {{K::Params, u, C::BlockForward}, {K::Release, u}});
    if (tied)
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
    else
        calls.insert(calls.end(), {{K::Params, U, C::HeadForward},
                                   {K::Release, U},
                                   {K::Params, U},
                                   {K::Grads, U, C::HeadBackward},
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
