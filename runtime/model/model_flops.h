// FLOPs per trained token of the GPT-2 model. Model FLOPs are what MFU divides by:
// the same whatever is recomputed, so MFU stays comparable across recompute modes
// (PaLM's definition). Hardware FLOPs add what recomputation executes again (HFU).
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"

namespace zerolab {

// 6 psi (forward 2 psi, backward 4 psi of the matmuls) + 6 L T C (the attention
// scores and weighted sum, llm.c's count), for a sequence length T.
inline double modelFlopsPerToken(const ModelShape& s, int T) {
    return 6.0 * static_cast<double>(paramCount(s)) + 6.0 * s.n_layer * T * s.n_embd;
}

// Model FLOPs plus the recomputed forward: full runs each block's matmuls again but
// the MLP's output projection (qkv 6C^2, attention projection 2C^2, fc 8C^2 per
// token) and the attention forward (2 T C); selective recomputes layernorms and GELU
// only, elementwise work the 6 psi convention does not count.
inline double hardwareFlopsPerToken(const ModelShape& s, int T, Recompute r) {
    const double C = s.n_embd;
    const double extra = r == Recompute::Full ? s.n_layer * (16.0 * C * C + 2.0 * T * C) : 0.0;
    return modelFlopsPerToken(s, T) + extra;
}

} // namespace zerolab
