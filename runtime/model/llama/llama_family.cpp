// The Llama family's description (family.h): its tensors, presets, activation footprint,
// calls, FLOPs, and the kernels each piece of its compute runs, following llama.cpp kernel
// by kernel.
#include "runtime/model/family.h"
#include "runtime/model/llama/llama_activations.h"
#include "runtime/model/llama/llama_flops.h"
#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/llama/llama_unit_calls.h"

#include <algorithm>

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

} // namespace

extern const ModelFamily kLlamaFamily;
const ModelFamily kLlamaFamily = {
    .id = Family::Llama,
    .name = "llama",
    .label = "Llama (Hugging Face LlamaForCausalLM)",
    .presets = kLlamaPresets,
    .tensors = llamaTensors,
    .activations = llamaActivationFootprint,
    .unit_calls = llamaUnitCalls,
    .model_flops_per_token = llamaModelFlopsPerToken,
    .hardware_flops_per_token = llamaHardwareFlopsPerToken,
    .module_forward_flops = llamaModuleForwardFlops,
    .largest_module_params = llamaLargestModuleParams,
    .compute_ops = llamaComputeOps,
    .matmuls = llamaMatmuls,
};

} // namespace zerolab
