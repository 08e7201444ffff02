// The Llama network: Hugging Face LlamaForCausalLM (with Qwen2's q/k/v biases and
// Mistral's shapes) on the Kernels seam, so that an HF checkpoint means the same model:
// token embedding without positions; per block x += o_proj(attn(rope(q), rope(k), v)) of
// input_layernorm(x), x += down_proj(silu(gate_proj(h)) * up_proj(h)) of
// post_attention_layernorm(x); final RMSNorm; a tied or untied lm head. RMSNorm at
// norm_eps, RoPE in rotate_half at rope_theta with rope_scaling, grouped-query flash
// attention (n_kv_head dividing n_head). It owns its activations; the engine owns
// parameters and grads.
#pragma once

#include "kernels/kernels.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/llama/llama_activations.h"
#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/network.h"
#include "runtime/model/param_layout.h"

#include <cstdint>

namespace zerolab {

// Calls a Llama makes, with U = L+1 the final unit (llama_unit_calls.h):
//   forward:  params(0) release(0), params(l) release(l) for l = 1..L, then
//             tied:   params(U) release(U) (final norm), params(0) release(0) (lm head);
//             untied: params(U) release(U) (final norm and lm_head, one unit).
//   backward: tied:   params(U) params(0) grads(0) grads(U) release(0) release(U)
//                     gradsReady(U);
//             untied: params(U) grads(U) release(U) gradsReady(U);
//             then for l = L..1: params(l) [recomputing(l), with model.recompute] grads(l)
//             release(l) gradsReady(l); then grads(0) gradsReady(0). The embedding's
//             backward is a scatter that needs no parameters, so it is not gathered again.
// Not thread-safe; one micro-batch at a time. Throws KernelError from the kernels and
// std::invalid_argument for a bad B, T or shape (llama_activations.h).
class Llama final : public Network {
public:
    // Allocates the activation arena through `kernels`, counts it in `ledger` as
    // MemCategory::Activations (activationFootprint(shape, B, T, recompute).total(L) bytes)
    // for its lifetime and uploads the RoPE table into it. 1 <= T <= shape.seq_len. With
    // recompute other than None, backward computes what the mode does not keep again from
    // the same inputs with the same kernels, so losses and gradients are bit-identical.
    Llama(const ModelShape& shape, int B, int T, Kernels& kernels, MemoryLedger& ledger,
          Recompute recompute = Recompute::None);
    ~Llama() override;
    Llama(const Llama&) = delete;
    Llama& operator=(const Llama&) = delete;

    float forward(const int* inputs, const int* targets, UnitAccess& access) override;
    void backward(const int* inputs, const int* targets, UnitAccess& access,
                  float grad_scale) override;

    const ParamLayout& layout() const override { return m_layout; }
    const ModelShape& shape() const override { return m_shape; }
    int batch() const override { return m_act.B; }
    int time() const override { return m_act.T; }
    Recompute recompute() const override { return m_act.recompute; }

private:
    float* act(std::int64_t offset) { return m_arena + offset; }
    float* layerAct(int layer, ArenaSlot slot) {
        return slot.per_layer ? m_arena + m_act.layers + layer * m_act.layer_stride + slot.offset
                              : m_arena + slot.offset;
    }
    int* tokens() { return reinterpret_cast<int*>(m_arena + m_act.tokens); }
    void uploadTokens(const int* inputs, const int* targets);
    void uploadRopeTable();
    const float* blockInput(int layer);
    // Train: the block's forward. Recompute: in backward, what the mode does not keep.
    enum class ForwardPass { Train, Recompute };
    void blockForward(int layer, const float* unit_params, ForwardPass pass = ForwardPass::Train);
    void blockBackward(int layer, const float* unit_params, float* unit_grads);

    ModelShape m_shape;
    ParamLayout m_layout;
    LlamaActivationLayout m_act;
    Kernels& m_kernels;
    MemoryLedger& m_ledger;
    float* m_arena = nullptr;
    long long m_arena_bytes = 0;
};

// Hugging Face's init (LlamaPreTrainedModel._init_weights with initializer_range 0.02) of
// one unit's params: every Linear weight (q/k/v/o, gate/up/down, lm_head) and the embedding
// normal with std 0.02, no residual scaling; the norms' weights 1; the q/k/v biases 0;
// embedding rows V..Vp-1 and the unit's padding 0. Every value is a function of (seed,
// tensor, layer, index in tensor) only: the same whatever pad_multiple/N is. unit_params
// is host memory of unit.padded_elems floats.
void initLlamaUnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                         float* unit_params);

// The registry's entry (network.h, makeNetwork).
std::unique_ptr<Network> makeLlamaNetwork(const ModelShape& shape, int B, int T, Kernels& kernels,
                                          MemoryLedger& ledger, Recompute recompute);

} // namespace zerolab
