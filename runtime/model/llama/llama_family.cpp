// The Llama family's description (family.h): its tensors, presets, activation footprint,
// calls, FLOPs, and the kernels each piece of its compute runs, following llama.cpp kernel
// by kernel.
#include "runtime/model/family.h"
#include "runtime/model/llama/llama_activations.h"
#include "runtime/model/llama/llama_flops.h"
#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/llama/llama_unit_calls.h"

#include <algorithm>
#include <string>

namespace zerolab {

namespace {

// Matmul FLOPs: forward 2 m k n; backward 4 m k n. Flash attention (gpt2_family.cpp's
// convention) counts one causal tile product over every query head as B T^2 (NH hd)
// FLOPs: its forward does two (scores, weighted sum), its backward five (it recomputes the
// scores from q, k and lse before d P, d V, d Q, d K; FlashAttention-2). RoPE's work is the
// elements it rotates; the others' the elements they write.
std::vector<KernelOp> llamaComputeOps(ModelCompute c, const ModelShape& s, int B, int T,
                                      Recompute recompute) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd, Vp = s.padded_vocab_size;
    const long long Q = static_cast<long long>(s.n_head) * s.headDim();
    const long long KV = static_cast<long long>(s.kvHeads()) * s.headDim(), F = s.ffn_dim;
    const double btc = static_cast<double>(N) * C, logits = static_cast<double>(N) * Vp;
    const double btq = static_cast<double>(N) * Q, btkv = static_cast<double>(N) * KV;
    const double btf = static_cast<double>(N) * F;
    const double product = static_cast<double>(B) * T * T * Q;
    using K = OpKind;
    // The block's forward up to the SwiGLU output: what full recompute runs again.
    const std::vector<KernelOp> toSwiglu = {elementsOp(K::RmsnormForward, btc),
                                            matmulOp(true, N, C, Q),
                                            matmulOp(true, N, C, KV),
                                            matmulOp(true, N, C, KV),
                                            elementsOp(K::Rope, btq),
                                            elementsOp(K::Rope, btkv),
                                            {K::FlashAttentionForward, 2 * product},
                                            matmulOp(true, N, Q, C),
                                            elementsOp(K::Residual, btc),
                                            elementsOp(K::RmsnormForward, btc),
                                            matmulOp(true, N, C, F),
                                            matmulOp(true, N, C, F),
                                            elementsOp(K::SwigluForward, btf)};
    const std::vector<KernelOp> head = {matmulOp(true, N, C, Vp),
                                        elementsOp(K::SoftmaxCrossEntropy, logits)};
    const std::vector<KernelOp> headBackward = {
        elementsOp(K::Zero, logits), elementsOp(K::CrossEntropyBackward, logits),
        elementsOp(K::Zero, btc), matmulOp(false, N, C, Vp)};
    const std::vector<KernelOp> normBackward = {elementsOp(K::Zero, btc),
                                                elementsOp(K::RmsnormBackward, btc)};
    auto join = [](std::vector<KernelOp> a, const std::vector<KernelOp>& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    switch (c) {
    case ModelCompute::None:
        return {};
    case ModelCompute::EncoderForward:
        return {elementsOp(K::EncoderForward, btc)};
    case ModelCompute::BlockForward:
        return join(toSwiglu, {matmulOp(true, N, F, C), elementsOp(K::Residual, btc)});
    case ModelCompute::BlockRecompute:
        if (recompute == Recompute::Selective)
            return {elementsOp(K::RmsnormForward, btc), elementsOp(K::RmsnormForward, btc),
                    elementsOp(K::SwigluForward, btf)};
        if (recompute == Recompute::None)
            return {};
        return toSwiglu;
    case ModelCompute::FinalNormForward:
        return {elementsOp(K::RmsnormForward, btc)};
    case ModelCompute::HeadForward: // untied: the final norm runs in the same gather
        return s.tied_head ? head : join({elementsOp(K::RmsnormForward, btc)}, head);
    case ModelCompute::HeadBackward:
        return s.tied_head ? headBackward : join(headBackward, normBackward);
    case ModelCompute::FinalNormBackward:
        return normBackward;
    case ModelCompute::BlockBackward:
        return {elementsOp(K::Zero, btf),
                matmulOp(false, N, F, C),
                elementsOp(K::Zero, btf),
                elementsOp(K::Zero, btf),
                elementsOp(K::SwigluBackward, btf),
                elementsOp(K::Zero, btc),
                matmulOp(false, N, C, F),
                matmulOp(false, N, C, F),
                elementsOp(K::RmsnormBackward, btc),
                elementsOp(K::Zero, btq),
                matmulOp(false, N, Q, C),
                elementsOp(K::Zero, btq + 2 * btkv),
                {K::FlashAttentionBackward, 5 * product},
                elementsOp(K::Rope, btq),
                elementsOp(K::Rope, btkv),
                elementsOp(K::Zero, btc),
                matmulOp(false, N, C, Q),
                matmulOp(false, N, C, KV),
                matmulOp(false, N, C, KV),
                elementsOp(K::RmsnormBackward, btc)};
    case ModelCompute::EncoderBackward:
        return {elementsOp(K::EncoderBackward, btc)};
    }
    return {};
}

// The distinct matmul shapes of llama.cpp (k/v's equals q's under multi-head attention).
std::vector<KernelOp> llamaMatmuls(const ModelShape& s, int B, int T) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd, F = s.ffn_dim;
    const long long Q = static_cast<long long>(s.n_head) * s.headDim();
    const long long KV = static_cast<long long>(s.kvHeads()) * s.headDim();
    std::vector<KernelOp> out;
    for (const KernelOp& op : {matmulOp(true, N, C, Q), matmulOp(true, N, C, KV),
                               matmulOp(true, N, Q, C), matmulOp(true, N, C, F),
                               matmulOp(true, N, F, C), matmulOp(true, N, C, s.padded_vocab_size)})
        if (std::find(out.begin(), out.end(), op) == out.end())
            out.push_back(op);
    return out;
}

// The arena's closed forms (llama_activations.h, docs/model.md's table) with the numbers
// plugged in, fp32 bytes: s = T, b = B, h = C, a query heads, k kv heads, d = head_dim,
// Q = a d, K = k d, f = ffn_dim. The 64-byte padding of each buffer is in the arena's
// total, not in these terms.
std::vector<ActivationTerm> llamaActivationTerms(const ModelShape& s, int B, int T,
                                                 Recompute recompute) {
    const long long C = s.n_embd, a = s.n_head, k = s.kvHeads(), d = s.headDim(), f = s.ffn_dim;
    const double sb = static_cast<double>(B) * T, sbh = sb * static_cast<double>(C),
                 sbQ = sb * static_cast<double>(a * d), sbK = sb * static_cast<double>(k * d),
                 sbf = sb * static_cast<double>(f);
    const double norms_lse = 4 * (2 + static_cast<double>(a)) * sb;
    std::vector<ActivationTerm> out;
    out.push_back(
        {Message(ZEROLAB_TR("PlanExplain", "  Llama activation arena, fp32 (4 bytes), s = T = %1, "
                                           "b = B = %2, h = %3, a = %4 heads, k = %5 kv heads, "
                                           "d = %6, Q = ad, K = kd, f = %7, L = %8, Vp = %9"),
                 {std::to_string(T), std::to_string(B), std::to_string(C), std::to_string(a),
                  std::to_string(k), std::to_string(d), std::to_string(f),
                  std::to_string(s.n_layer), std::to_string(s.padded_vocab_size)}),
         std::nullopt});
    out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                      "  recompute %1; flash attention: no (T,T) scores are "
                                      "kept, only each query row's log-sum-exp; k and v stay at "
                                      "the kv heads (no copies per query head)"),
                           {std::string(recomputeName(recompute))}),
                   std::nullopt});
    switch (recompute) {
    case Recompute::None:
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  per layer: 16sbh + 8sbQ + 8sbK + 12sbf + 4(2 + a)sb "
                                          "(block input, ln1, residual2, ln2; q, atty; k, v; "
                                          "gate, up, swiglu; both norms' 1/rms and the "
                                          "log-sum-exp) = %1")),
                       16 * sbh + 8 * sbQ + 8 * sbK + 12 * sbf + norms_lse});
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  (Korthikanti et al. 2022 count 34sbh + 5as^2b for "
                                          "GPT in fp16: no GQA, a 4h GeLU, dropout masks, the "
                                          "(T,T) scores)")),
                       std::nullopt});
        break;
    case Recompute::Selective:
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  per layer: 8sbh + 8sbQ + 8sbK + 8sbf + 4(2 + a)sb "
                                          "(the matmul outputs, residuals, 1/rms and the "
                                          "log-sum-exp; ln1, ln2 and swiglu recomputed) = %1")),
                       8 * sbh + 8 * sbQ + 8 * sbK + 8 * sbf + norms_lse});
        out.push_back(
            {Message(ZEROLAB_TR("PlanExplain", "  once: 8sbh for the recomputed ln1 and ln2 = %1 "
                                               "(swiglu is recomputed into the d gate gradient "
                                               "buffer)")),
             8 * sbh});
        break;
    case Recompute::Full:
        out.push_back({Message(ZEROLAB_TR("PlanExplain", "  per layer: 4sbh (the block's output, "
                                                         "the next block's input) = %1")),
                       4 * sbh});
        out.push_back(
            {Message(ZEROLAB_TR("PlanExplain", "  once: one block recomputed in backward, 12sbh + "
                                               "8sbQ + 8sbK + 8sbf + 4(2 + a)sb = %1")),
             12 * sbh + 8 * sbQ + 8 * sbK + 8 * sbf + norms_lse});
        break;
    }
    out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                      "  once: embeddings, the RoPE table (4sd), final norm, "
                                      "logits and probs (8sbVp), gradient scratch = the rest of "
                                      "the arena")),
                   std::nullopt});
    return out;
}

} // namespace

extern const ModelFamily kLlamaFamily;
const ModelFamily kLlamaFamily = {
    .id = Family::Llama,
    .name = "llama",
    .label = "Llama (Hugging Face LlamaForCausalLM)",
    .presets = kLlamaPresets,
    .tensors = llamaTensors,
    .activations = llamaActivationFootprint,
    .activation_terms = llamaActivationTerms,
    .unit_calls = llamaUnitCalls,
    .model_flops_per_token = llamaModelFlopsPerToken,
    .hardware_flops_per_token = llamaHardwareFlopsPerToken,
    .module_forward_flops = llamaModuleForwardFlops,
    .largest_module_params = llamaLargestModuleParams,
    .compute_ops = llamaComputeOps,
    .matmuls = llamaMatmuls,
};

} // namespace zerolab
