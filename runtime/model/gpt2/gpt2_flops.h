// FLOPs per trained token of the GPT-2 model (model_flops.h's definitions).
#pragma once

#include "runtime/model/gpt2/gpt2_tensors.h"
#include "runtime/model/model_flops.h"
#include "runtime/model/recompute.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace zerolab {

// 6 psi (forward 2 psi, backward 4 psi of the matmuls) + 6 L T C (the attention
// scores and weighted sum, llm.c's count), for a sequence length T.
inline double gpt2ModelFlopsPerToken(const ModelShape& s, int T) {
    return 6.0 * static_cast<double>(paramCount(s)) + 6.0 * s.n_layer * T * s.n_embd;
}

// Model FLOPs plus what the hardware executes again, per token and layer, in the
// attention count of gpt2_family.cpp (one causal tile product over all heads: T C per
// token; the attention forward is two, 2 T C):
//   full       the block's matmuls again but the MLP's output projection (qkv 6C^2,
//              attention projection 2C^2, fc 8C^2) and the attention forward (2 T C);
//   selective  with standard attention its forward (2 T C: the scores and probabilities
//              are not kept), and layernorms and GELU, elementwise work the 6 psi
//              convention does not count;
//   flash      in every mode, the backward's recomputed scores (T C: five tile products
//              where the standard backward does four); its selective redoes no attention.
inline double gpt2HardwareFlopsPerToken(const ModelShape& s, int T, Recompute r) {
    const double C = s.n_embd, attentionForward = 2.0 * T * C;
    const bool flash = s.attention == AttentionKernel::Flash;
    double extra = 0.0;
    if (r == Recompute::Full)
        extra += 16.0 * C * C + attentionForward;
    if (r == Recompute::Selective && !flash)
        extra += attentionForward;
    if (flash)
        extra += T * C;
    return gpt2ModelFlopsPerToken(s, T) + s.n_layer * extra;
}

// The model FLOPs of one forward pass per token, module by module, in the same
// convention: 2 FLOPs per parameter per token (a third of 6 psi), plus 2 T C in each
// block's attention (a third of 6 L T C). The tied head does the FLOPs of wte's
// parameters (wte itself, a lookup, none); wpe's are counted where it is added, as 6 psi
// does. Three times their sum is modelFlopsPerToken. Order: wte, wpe, then per block
// ln_1, attn, ln_2, mlp, then ln_f and lm_head (the flops profiler's tree, depth 1 or 3).
inline std::vector<ModuleFlops> gpt2ModuleForwardFlops(const ModelShape& s, int T) {
    auto elements = [&](std::initializer_list<Gpt2Tensor> ts) {
        double n = 0;
        for (Gpt2Tensor t : ts)
            n += static_cast<double>(gpt2TensorElements(s, t));
        return n;
    };
    using P = Gpt2Tensor;
    const double wte = elements({P::Wte}), wpe = elements({P::Wpe});
    const double ln1 = elements({P::Ln1w, P::Ln1b}), ln2 = elements({P::Ln2w, P::Ln2b});
    const double attn = elements({P::Qkvw, P::Qkvb, P::Attprojw, P::Attprojb});
    const double mlp = elements({P::Fcw, P::Fcb, P::Fcprojw, P::Fcprojb});
    const double lnf = elements({P::Lnfw, P::Lnfb});
    std::vector<ModuleFlops> m;
    m.push_back({"wte", "Embedding", -1, wte, 0});
    m.push_back({"wpe", "Embedding", -1, wpe, 2 * wpe});
    for (int b = 0; b < s.n_layer; ++b) {
        m.push_back({"ln_1", "LayerNorm", b, ln1, 2 * ln1});
        m.push_back({"attn", "CausalSelfAttention", b, attn,
                     2 * attn + 2.0 * T * static_cast<double>(s.n_embd)});
        m.push_back({"ln_2", "LayerNorm", b, ln2, 2 * ln2});
        m.push_back({"mlp", "MLP", b, mlp, 2 * mlp});
    }
    m.push_back({"ln_f", "LayerNorm", -1, lnf, 2 * lnf});
    m.push_back({"lm_head", "Linear", -1, 0, 2 * wte});
    return m;
}

// DeepSpeed's largest layer (model_to_params): the embedding or the MLP's fc.
inline double gpt2LargestModuleParams(const ModelShape& s) {
    const auto e = [&](Gpt2Tensor t) { return static_cast<double>(gpt2TensorElements(s, t)); };
    return std::max({e(Gpt2Tensor::Wte), e(Gpt2Tensor::Fcw) + e(Gpt2Tensor::Fcb),
                     e(Gpt2Tensor::Fcprojw) + e(Gpt2Tensor::Fcprojb),
                     e(Gpt2Tensor::Qkvw) + e(Gpt2Tensor::Qkvb)});
}

} // namespace zerolab
