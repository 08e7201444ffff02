// The GPT-2 model (llm.c's architecture: learned positions, pre-LayerNorm blocks,
// causal multi-head attention, tanh GELU, tied input/output embedding) run through
// the Kernels seam. It owns its activations; the engine owns parameters and grads.
#pragma once

#include "kernels/kernels.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/gpt2/gpt2_activations.h"
#include "runtime/model/gpt2/gpt2_tensors.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/network.h"
#include "runtime/model/param_layout.h"

#include <cstdint>

namespace zerolab {

// Calls a Gpt2 makes, with U = L+1 the final-layernorm unit:
//   forward:  params(0) release(0), params(l) release(l) for l = 1..L,
//             params(U) release(U), params(0) (lm-head) release(0).
//   backward: params(U) params(0) grads(0) grads(U) (lm-head and lnf) release(0) release(U)
//             gradsReady(U); then for l = L..1: params(l) [recomputing(l), with model.recompute]
//             grads(l) release(l) gradsReady(l); then grads(0) gradsReady(0). The encoder backward
//             needs no parameters, so the embedding is not gathered again at the end.
// Not thread-safe; one micro-batch at a time. Throws KernelError from the kernels and
// std::invalid_argument for a bad B, T.
class Gpt2 final : public Network {
public:
    // Allocates the activation arena through `kernels` and counts it in `ledger` as
    // MemCategory::Activations (activationFootprint(shape, B, T, recompute).total(L)
    // bytes) for the lifetime of the model. 1 <= T <= shape.seq_len. Keeps references
    // to both. With recompute other than None, backward computes the activations the
    // mode does not keep again (recompute.h) from the same inputs with the same
    // kernels, so losses and gradients are bit-identical to None's. shape.attention
    // picks the attention kernels (Standard: attentionForward/Backward; Flash:
    // flashAttentionForward/Backward on the packed qkv): the same math within fp32
    // rounding, a different arena (gpt2_activations.h).
    Gpt2(const ModelShape& shape, int B, int T, Kernels& kernels, MemoryLedger& ledger,
         Recompute recompute = Recompute::None);
    ~Gpt2() override;
    Gpt2(const Gpt2&) = delete;
    Gpt2& operator=(const Gpt2&) = delete;

    // inputs, targets: host (B,T) token ids, inputs in [0,Vp), targets in [0,V). Returns
    // the mean cross-entropy over the B*T positions; keeps activations for backward.
    float forward(const int* inputs, const int* targets, UnitAccess& access) override;
    // Backward of grad_scale * mean loss of the last forward, which must have had the
    // same inputs and targets; accumulates into the grads and calls gradsReady in
    // reverse order: final LN, blocks L..1, embedding last (the tied wte gets its lm-head
    // and encoder contributions before it is ready).
    void backward(const int* inputs, const int* targets, UnitAccess& access,
                  float grad_scale) override;

    // The unpadded layout (pad_multiple 1) of the units; the engine builds its own
    // padded ParamLayout, whose tensor offsets within each unit are the same.
    const ParamLayout& layout() const override { return m_layout; }
    const ModelShape& shape() const override { return m_shape; }
    int batch() const override { return m_act.B; }
    int time() const override { return m_act.T; }
    Recompute recompute() const override { return m_act.recompute; }

private:
    float* act(std::int64_t offset) { return m_arena + offset; }
    float* layerAct(int layer, ActivationSlot slot) {
        return slot.per_layer ? m_arena + m_act.layers + layer * m_act.layer_stride + slot.offset
                              : m_arena + slot.offset;
    }
    int* tokens() { return reinterpret_cast<int*>(m_arena + m_act.tokens); }
    void uploadTokens(const int* inputs, const int* targets);
    // Train: the block's forward. Recompute: in backward, what the mode does not keep.
    enum class ForwardPass { Train, Recompute };
    void blockForward(int layer, const float* unit_params, ForwardPass pass = ForwardPass::Train);
    void blockBackward(int layer, const float* unit_params, float* unit_grads);
    // The attention core of `layer` with the shape's kernel: atty (and att or lse) from qkv;
    // backward: dqkv += from datty.
    void attentionForward(int layer);
    void attentionBackward(int layer, float* dqkv, const float* datty);

    ModelShape m_shape;
    ParamLayout m_layout;
    Gpt2ActivationLayout m_act;
    Kernels& m_kernels;
    MemoryLedger& m_ledger;
    float* m_arena = nullptr;
    long long m_arena_bytes = 0;
};

// Deterministic GPT-2 init of one unit's params (normal, std 0.02; residual projections
// attprojw and fcprojw scaled by 1/sqrt(2*n_layer); biases 0, LN weights 1; wte rows
// V..Vp-1 and the unit's padding 0). Every value is a function of (seed, tensor, layer,
// index in tensor) only: the same whatever pad_multiple/N is. unit_params is host memory
// of unit.padded_elems floats.
void initGpt2UnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                        float* unit_params);

// The registry's entry (network.h, makeNetwork).
std::unique_ptr<Network> makeGpt2Network(const ModelShape& shape, int B, int T, Kernels& kernels,
                                         MemoryLedger& ledger, Recompute recompute);

} // namespace zerolab
