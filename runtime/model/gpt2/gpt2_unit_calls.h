// The calls a Gpt2 makes (gpt2.h), as data (unit_calls.h).
#pragma once

#include "runtime/model/param_layout.h"
#include "runtime/model/recompute.h"
#include "runtime/model/unit_calls.h"

#include <vector>

namespace zerolab {

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
