// The GPT-2 family's description (family.h): its tensors, presets, activation
// footprint, calls, FLOPs, and the kernels each piece of its compute runs, following
// gpt2.cpp kernel by kernel.
#include "runtime/model/family.h"
#include "runtime/model/gpt2/gpt2_activations.h"
#include "runtime/model/gpt2/gpt2_flops.h"
#include "runtime/model/gpt2/gpt2_tensors.h"
#include "runtime/model/gpt2/gpt2_unit_calls.h"

namespace zerolab {

namespace {

// Matmul FLOPs: forward 2 m k n; backward 4 m k n. Attention counts one causal tile
// product over every head (llm.c's loops over t2 <= t) as B T^2 C FLOPs: the standard
// forward does two (scores, weighted sum: 2 B T^2 C) and its backward four (d att, d v,
// d q, d k); flash's forward the same two, its backward five, because it recomputes the
// scores tile by tile from q, k and lse before d P, d V, d Q, d K (FlashAttention-2).
std::vector<KernelOp> gpt2ComputeOps(ModelCompute c, const ModelShape& s, int B, int T,
                                     Recompute recompute) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd, Vp = s.padded_vocab_size;
    const double btc = static_cast<double>(N) * C, logits = static_cast<double>(N) * Vp;
    const double product = static_cast<double>(B) * T * T * C;
    const bool flash = s.attention == AttentionKernel::Flash;
    using K = OpKind;
    const KernelOp attention = flash ? KernelOp{K::FlashAttentionForward, 2 * product}
                                     : KernelOp{K::AttentionForward, 2 * product};
    const KernelOp attentionBackward = flash ? KernelOp{K::FlashAttentionBackward, 5 * product}
                                             : KernelOp{K::AttentionBackward, 4 * product};
    switch (c) {
    case ModelCompute::None:
        return {};
    case ModelCompute::EncoderForward:
        return {elementsOp(K::EncoderForward, btc)};
    case ModelCompute::BlockForward:
        return {elementsOp(K::LayernormForward, btc),
                matmulOp(true, N, C, 3 * C),
                attention,
                matmulOp(true, N, C, C),
                elementsOp(K::Residual, btc),
                elementsOp(K::LayernormForward, btc),
                matmulOp(true, N, C, 4 * C),
                elementsOp(K::GeluForward, 4 * btc),
                matmulOp(true, N, 4 * C, C),
                elementsOp(K::Residual, btc)};
    case ModelCompute::BlockRecompute:
        // Selective (gpt2.cpp's blockForward, pass Recompute): ln1, the standard
        // attention core from the kept qkv (flash keeps its lse: nothing to redo), ln2, GELU.
        if (recompute == Recompute::Selective) {
            if (flash)
                return {elementsOp(K::LayernormForward, btc), elementsOp(K::LayernormForward, btc),
                        elementsOp(K::GeluForward, 4 * btc)};
            return {elementsOp(K::LayernormForward, btc), attention,
                    elementsOp(K::LayernormForward, btc), elementsOp(K::GeluForward, 4 * btc)};
        }
        if (recompute == Recompute::None)
            return {};
        return {elementsOp(K::LayernormForward, btc),
                matmulOp(true, N, C, 3 * C),
                attention,
                matmulOp(true, N, C, C),
                elementsOp(K::Residual, btc),
                elementsOp(K::LayernormForward, btc),
                matmulOp(true, N, C, 4 * C),
                elementsOp(K::GeluForward, 4 * btc)};
    case ModelCompute::FinalNormForward:
        return {elementsOp(K::LayernormForward, btc)};
    case ModelCompute::HeadForward:
        return {matmulOp(true, N, C, Vp), elementsOp(K::SoftmaxCrossEntropy, logits)};
    case ModelCompute::HeadBackward:
        return {elementsOp(K::Zero, logits), elementsOp(K::CrossEntropyBackward, logits),
                elementsOp(K::Zero, btc), matmulOp(false, N, C, Vp)};
    case ModelCompute::FinalNormBackward:
        return {elementsOp(K::Zero, btc), elementsOp(K::LayernormBackward, btc)};
    case ModelCompute::BlockBackward:
        return {elementsOp(K::Zero, 4 * btc),
                matmulOp(false, N, 4 * C, C),
                elementsOp(K::Zero, 4 * btc),
                elementsOp(K::GeluBackward, 4 * btc),
                elementsOp(K::Zero, btc),
                matmulOp(false, N, C, 4 * C),
                elementsOp(K::LayernormBackward, btc),
                elementsOp(K::Zero, btc),
                matmulOp(false, N, C, C),
                elementsOp(K::Zero, 3 * btc),
                attentionBackward,
                elementsOp(K::Zero, btc),
                matmulOp(false, N, C, 3 * C),
                elementsOp(K::LayernormBackward, btc)};
    case ModelCompute::EncoderBackward:
        return {elementsOp(K::EncoderBackward, btc)};
    }
    return {};
}

std::vector<KernelOp> gpt2Matmuls(const ModelShape& s, int B, int T) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd;
    return {matmulOp(true, N, C, 3 * C), matmulOp(true, N, C, C), matmulOp(true, N, C, 4 * C),
            matmulOp(true, N, 4 * C, C), matmulOp(true, N, C, s.padded_vocab_size)};
}

} // namespace

extern const ModelFamily kGpt2Family;
const ModelFamily kGpt2Family = {
    .id = Family::Gpt2,
    .name = "gpt2",
    .label = "GPT-2 (llm.c)",
    .presets = kGpt2Presets,
    .tensors = gpt2Tensors,
    .activations = gpt2ActivationFootprint,
    .unit_calls = gpt2UnitCalls,
    .model_flops_per_token = gpt2ModelFlopsPerToken,
    .hardware_flops_per_token = gpt2HardwareFlopsPerToken,
    .module_forward_flops = gpt2ModuleForwardFlops,
    .largest_module_params = gpt2LargestModuleParams,
    .compute_ops = gpt2ComputeOps,
    .matmuls = gpt2Matmuls,
};

} // namespace zerolab
