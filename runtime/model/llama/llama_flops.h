// FLOPs per trained token of the Llama model (model_flops.h's definitions).
//
// Conventions (GPT-2's, gpt2_flops.h, with PaLM's restriction to matmul parameters):
// - A matmul parameter does 2 FLOPs per token forward and 4 backward: 6 per token. The
//   matmul parameters are every Linear's (q/k/v/o, gate/up/down, their biases where the
//   shape has them) and the lm head's Vp*C, tied or not. The embedding lookup, the norms,
//   RoPE, SwiGLU's gate and the residual adds are elementwise and not counted (GPT-2's
//   6 psi counts its layernorms' and wpe's few parameters; a Llama shape's untied
//   embed_tokens is Vp*C parameters that do no matmul, which 6 psi would count wrongly).
// - Causal attention: llm.c's 6 L T C with C the width attention runs at, NH * head_dim:
//   per token and layer the scores and the weighted sum of the T/2 keys on average, 2 T
//   (NH hd) forward, twice that backward. Grouped-query attention shares k and v between
//   query heads but does the same products, so the count does not depend on n_kv_head.
#pragma once

#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/model_flops.h"
#include "runtime/model/recompute.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace zerolab {

namespace llama_detail {
inline double elements(const ModelShape& s, std::initializer_list<LlamaTensor> ts) {
    double n = 0;
    for (LlamaTensor t : ts)
        n += static_cast<double>(llamaTensorElements(s, t));
    return n;
}
// One block's attention and MLP Linear parameters, biases included.
inline double attentionLinearParams(const ModelShape& s) {
    using P = LlamaTensor;
    return elements(s, {P::QProj, P::QBias, P::KProj, P::KBias, P::VProj, P::VBias, P::OProj});
}
inline double mlpParams(const ModelShape& s) {
    using P = LlamaTensor;
    return elements(s, {P::GateProj, P::UpProj, P::DownProj});
}
// The lm head's matmul: Vp x C whether it is embed_tokens (tied) or lm_head.
inline double headMatmulParams(const ModelShape& s) {
    return static_cast<double>(s.padded_vocab_size) * s.n_embd;
}
// Attention's forward FLOPs per token and layer: 2 T NH hd (causal).
inline double attentionForwardPerToken(const ModelShape& s, int T) {
    return 2.0 * T * static_cast<double>(s.n_head) * s.headDim();
}
} // namespace llama_detail

// 6 x matmul parameters + 6 L T NH hd, for a sequence length T.
inline double llamaModelFlopsPerToken(const ModelShape& s, int T) {
    using namespace llama_detail;
    const double matmul =
        s.n_layer * (attentionLinearParams(s) + mlpParams(s)) + headMatmulParams(s);
    return 6.0 * matmul + 3.0 * s.n_layer * attentionForwardPerToken(s, T);
}

// Model FLOPs plus the recomputed forward: full runs each block's forward again up to the
// SwiGLU output (every Linear but down_proj, and the attention forward); selective
// recomputes the two RMSNorms and SwiGLU only, elementwise work the convention does not
// count.
inline double llamaHardwareFlopsPerToken(const ModelShape& s, int T, Recompute r) {
    using namespace llama_detail;
    using P = LlamaTensor;
    const double recomputed =
        r == Recompute::Full
            ? s.n_layer *
                  (2.0 * (attentionLinearParams(s) + elements(s, {P::GateProj, P::UpProj})) +
                   attentionForwardPerToken(s, T))
            : 0.0;
    return llamaModelFlopsPerToken(s, T) + recomputed;
}

// The model FLOPs of one forward pass per token, module by module, with DeepSpeed's flops
// profiler's names for HF's modules, in the same convention: 2 FLOPs per matmul parameter
// per token, plus 2 T NH hd in each block's attention; the embedding and the norms 0.
// Three times their sum is llamaModelFlopsPerToken. Order: embed_tokens, then per block
// input_layernorm, self_attn, post_attention_layernorm, mlp, then norm and lm_head (params
// 0 when tied: the embedding's).
inline std::vector<ModuleFlops> llamaModuleForwardFlops(const ModelShape& s, int T) {
    using namespace llama_detail;
    using P = LlamaTensor;
    const double attn = attentionLinearParams(s), mlp = mlpParams(s);
    std::vector<ModuleFlops> m;
    m.push_back({"embed_tokens", "Embedding", -1, elements(s, {P::EmbedTokens}), 0});
    for (int b = 0; b < s.n_layer; ++b) {
        m.push_back({"input_layernorm", "LlamaRMSNorm", b, elements(s, {P::InputLayernorm}), 0});
        m.push_back(
            {"self_attn", "LlamaAttention", b, attn, 2 * attn + attentionForwardPerToken(s, T)});
        m.push_back({"post_attention_layernorm", "LlamaRMSNorm", b,
                     elements(s, {P::PostAttentionLayernorm}), 0});
        m.push_back({"mlp", "LlamaMLP", b, mlp, 2 * mlp});
    }
    m.push_back({"norm", "LlamaRMSNorm", -1, elements(s, {P::Norm}), 0});
    m.push_back({"lm_head", "Linear", -1, elements(s, {P::LmHead}), 2 * headMatmulParams(s)});
    return m;
}

// DeepSpeed's largest layer (model_to_params): the most parameters one leaf module owns,
// the embedding, an untied lm_head or one of the Linear layers.
inline double llamaLargestModuleParams(const ModelShape& s) {
    using namespace llama_detail;
    using P = LlamaTensor;
    return std::max({elements(s, {P::EmbedTokens}), elements(s, {P::LmHead}),
                     elements(s, {P::QProj, P::QBias}), elements(s, {P::KProj, P::KBias}),
                     elements(s, {P::OProj}), elements(s, {P::GateProj}),
                     elements(s, {P::DownProj})});
}

} // namespace zerolab
