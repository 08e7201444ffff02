// The GPT-2 family's description (family.h): its tensors, presets, activation
// footprint, calls, FLOPs, and the kernels each piece of its compute runs, following
// gpt2.cpp kernel by kernel.
#include "runtime/model/family.h"
#include "runtime/model/gpt2/gpt2_activations.h"
#include "runtime/model/gpt2/gpt2_flops.h"
#include "runtime/model/gpt2/gpt2_tensors.h"
#include "runtime/model/gpt2/gpt2_unit_calls.h"

#include <string>

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

// The arena's closed forms (gpt2_activations.h) with the numbers plugged in, fp32 bytes:
// s = T, b = B, h = C, a = heads. The 64-byte padding of each buffer is in the arena's
// total, not in these terms.
std::vector<ActivationTerm> gpt2ActivationTerms(const ModelShape& s, int B, int T,
                                                Recompute recompute) {
    const long long C = s.n_embd, a = s.n_head;
    const double sbh = static_cast<double>(B) * T * C, as2b = static_cast<double>(a) * T * T * B,
                 asb = static_cast<double>(a) * T * B, sb = static_cast<double>(B) * T;
    const bool flash = s.attention == AttentionKernel::Flash;
    std::vector<ActivationTerm> out;
    out.push_back(
        {Message(ZEROLAB_TR("PlanExplain",
                            "  GPT-2 activation arena, fp32 (4 bytes), s = T = %1, b = B = %2, "
                            "h = C = %3, a = heads = %4, L = %5, Vp = %6; recompute %7"),
                 {std::to_string(T), std::to_string(B), std::to_string(C), std::to_string(a),
                  std::to_string(s.n_layer), std::to_string(s.padded_vocab_size),
                  std::string(recomputeName(recompute))}),
         std::nullopt});
    if (flash)
        out.push_back(
            {Message(ZEROLAB_TR("PlanExplain", "  attention %1: no (T,T) probabilities are kept, "
                                               "only each query row's log-sum-exp (4asb)"),
                     {std::string(attentionKernelName(s.attention))}),
             std::nullopt});
    switch (recompute) {
    case Recompute::None:
        if (flash) {
            out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                              "  per layer: 64sbh + 4asb + 16sb (ln1, qkv, atty, "
                                              "residual2, ln2, fch, gelu, residual3; the "
                                              "log-sum-exp; layernorm statistics) = %1")),
                           64 * sbh + 4 * asb + 16 * sb});
            break;
        }
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  per layer: 64sbh + 4as^2b + 16sb (ln1, qkv, atty, "
                                          "residual2, ln2, fch, gelu, residual3; attention "
                                          "probabilities; layernorm statistics) = %1")),
                       64 * sbh + 4 * as2b + 16 * sb});
        out.push_back(
            {Message(ZEROLAB_TR("PlanExplain", "  (Korthikanti et al. 2022 count 34sbh + 5as^2b in "
                                               "fp16 with dropout masks)")),
             std::nullopt});
        break;
    case Recompute::Selective:
        if (flash) {
            out.push_back(
                {Message(ZEROLAB_TR("PlanExplain",
                                    "  per layer: 40sbh + 4asb + 16sb (the matmul outputs, "
                                    "residuals, the log-sum-exp; ln1, ln2 and gelu "
                                    "recomputed) = %1")),
                 40 * sbh + 4 * asb + 16 * sb});
            out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                              "  once: 8sbh for the recomputed ln1 and ln2 = %1 "
                                              "(gelu is recomputed into the d fch gradient "
                                              "buffer)")),
                           8 * sbh});
            break;
        }
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  per layer: 40sbh + 16sb (the matmul outputs, "
                                          "residuals; the attention probabilities, ln1, ln2 and "
                                          "gelu recomputed) = %1")),
                       40 * sbh + 16 * sb});
        out.push_back({Message(ZEROLAB_TR("PlanExplain",
                                          "  once: 8sbh + 4as^2b for the recomputed ln1, ln2 and "
                                          "attention probabilities = %1 (gelu is recomputed into "
                                          "the d fch gradient buffer)")),
                       8 * sbh + 4 * as2b});
        break;
    case Recompute::Full:
        out.push_back({Message(ZEROLAB_TR("PlanExplain", "  per layer: 4sbh (the block's output, "
                                                         "the next block's input) = %1")),
                       4 * sbh});
        if (flash)
            out.push_back({Message(ZEROLAB_TR("PlanExplain", "  once: one block recomputed in "
                                                             "backward, 44sbh + 4asb + 16sb = %1")),
                           44 * sbh + 4 * asb + 16 * sb});
        else
            out.push_back(
                {Message(ZEROLAB_TR("PlanExplain", "  once: one block recomputed in "
                                                   "backward, 44sbh + 4as^2b + 16sb = %1")),
                 44 * sbh + 4 * as2b + 16 * sb});
        break;
    }
    out.push_back(
        {Message(ZEROLAB_TR("PlanExplain", "  once: embeddings, final layernorm, logits and probs "
                                           "(8sbVp), gradient scratch = the rest of the arena")),
         std::nullopt});
    return out;
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
    .activation_terms = gpt2ActivationTerms,
    .unit_calls = gpt2UnitCalls,
    .model_flops_per_token = gpt2ModelFlopsPerToken,
    .hardware_flops_per_token = gpt2HardwareFlopsPerToken,
    .module_forward_flops = gpt2ModuleForwardFlops,
    .largest_module_params = gpt2LargestModuleParams,
    .compute_ops = gpt2ComputeOps,
    .matmuls = gpt2Matmuls,
};

} // namespace zerolab
