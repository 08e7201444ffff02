// Llama forward and backward over the Kernels ops, one gather unit at a time, in the call
// order documented in llama.h. Shapes: B, T micro-batch; C channels; NH query heads and
// NKV key/value heads of hd channels, Q = NH*hd, KV = NKV*hd; F the MLP's width.
#include "runtime/model/llama/llama.h"

#include "kernels/rope.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

namespace {

// A parameter (or gradient) tensor of a unit buffer laid out as `unit`; nullptr for a
// tensor the shape does not have (a bias without qkv_bias), which the kernels read as none.
template <typename F>
F* tensor(F* unit_base, const UnitLayout& unit, const ModelShape& s, LlamaTensor t) {
    return llamaTensorElements(s, t) == 0 ? nullptr : unit_base + unit.tensorOffset(t);
}

// The lm head's weight (or its gradient) in the unit that holds it: embed_tokens of unit 0
// when tied, lm_head of the final unit when not.
template <typename F> F* headWeight(F* unit_base, const UnitLayout& unit, const ModelShape& s) {
    return unit_base +
           unit.tensorOffset(s.tied_head ? LlamaTensor::EmbedTokens : LlamaTensor::LmHead);
}

// HF's inverse frequencies for the shape: default, "linear" (inv_freq / factor,
// _compute_linear_scaling_rope_parameters) or "llama3" (kernels/rope.h).
std::vector<double> ropeInverseFrequencies(const ModelShape& s) {
    const RopeScalingSpec& r = s.rope_scaling;
    switch (r.type) {
    case RopeScalingType::None:
        return ropeInvFreq(s.headDim(), s.rope_theta);
    case RopeScalingType::Linear: {
        if (!(r.factor > 0.0))
            throw std::invalid_argument("Llama family: rope_scaling linear factor = " +
                                        std::to_string(r.factor) + " must be positive");
        std::vector<double> f = ropeInvFreq(s.headDim(), s.rope_theta);
        for (double& x : f)
            x /= r.factor;
        return f;
    }
    case RopeScalingType::Llama3:
        return ropeInvFreq(s.headDim(), s.rope_theta,
                           RopeScaling{r.factor, r.low_freq_factor, r.high_freq_factor,
                                       static_cast<double>(r.original_max_position_embeddings)});
    }
    throw std::invalid_argument("Llama family: unknown rope_scaling type " +
                                std::to_string(static_cast<int>(r.type)));
}

} // namespace

Llama::Llama(const ModelShape& shape, int B, int T, Kernels& kernels, MemoryLedger& ledger,
             Recompute recompute)
    : m_shape(shape), m_layout(makeParamLayout(shape, 1)),
      m_act(makeLlamaActivationLayout(shape, B, T, recompute)), m_kernels(kernels),
      m_ledger(ledger) {
    const std::vector<float> table = ropeTable(T, ropeInverseFrequencies(shape));
    // The arena's table slot is sized by the layout (zerolab_model may not use the kernels);
    // ropeTableFloats is the kernels' definition of that size.
    if (table.size() != ropeTableFloats(T, shape.headDim()) ||
        static_cast<std::int64_t>(table.size()) != m_act.rope_floats)
        throw std::logic_error("Llama: the RoPE table has " + std::to_string(table.size()) +
                               " floats, the activation layout " +
                               std::to_string(m_act.rope_floats));
    m_arena_bytes = static_cast<long long>(m_act.total_floats * sizeof(float));
    m_arena = static_cast<float*>(m_kernels.allocate(static_cast<std::size_t>(m_arena_bytes)));
    m_ledger.add(MemCategory::Activations, m_arena_bytes);
    m_kernels.copyToDevice(act(m_act.rope), table.data(), table.size() * sizeof(float));
}

Llama::~Llama() {
    m_kernels.release(m_arena);
    m_ledger.sub(MemCategory::Activations, m_arena_bytes);
}

void Llama::uploadTokens(const int* inputs, const int* targets) {
    const std::size_t bt = static_cast<std::size_t>(m_act.B) * m_act.T;
    m_kernels.copyToDevice(tokens(), inputs, bt * sizeof(int));
    m_kernels.copyToDevice(tokens() + bt, targets, bt * sizeof(int));
}

const float* Llama::blockInput(int l) {
    return l == 0 ? act(m_act.encoded) : layerAct(l - 1, m_act.layer.residual3);
}

// pass Train: the block's forward, writing every slot and the block's output residual3.
// pass Recompute: in backward, before blockBackward(l), what the mode does not keep, by
// the same kernel calls on the same inputs as in Train:
//   selective  ln1, ln2 (their rstd rewritten with the same values), swiglu;
//   full       everything up to swiglu; down_proj and residual3 are not needed again.
void Llama::blockForward(int l, const float* p, ForwardPass pass) {
    const UnitLayout& u = m_layout.units[m_layout.blockUnit(l)];
    const LlamaLayerActivations& o = m_act.layer;
    const ModelShape& s = m_shape;
    const int B = m_act.B, T = m_act.T, C = s.n_embd, N = B * T, F = s.ffn_dim;
    const int NH = s.n_head, NKV = s.kvHeads(), hd = s.headDim(), Q = NH * hd, KV = NKV * hd;
    const std::size_t btc = static_cast<std::size_t>(N) * C, btf = static_cast<std::size_t>(N) * F;
    const float eps = static_cast<float>(s.norm_eps);
    const float* x = blockInput(l);
    auto w = [&](LlamaTensor t) { return tensor(p, u, s, t); };
    using P = LlamaTensor;
    Kernels& k = m_kernels;
    if (pass == ForwardPass::Recompute && m_act.recompute == Recompute::Selective) {
        k.rmsnormForward(layerAct(l, o.ln1), layerAct(l, o.ln1_rstd), x, w(P::InputLayernorm), N, C,
                         eps);
        k.rmsnormForward(layerAct(l, o.ln2), layerAct(l, o.ln2_rstd), layerAct(l, o.residual2),
                         w(P::PostAttentionLayernorm), N, C, eps);
        k.swigluForward(layerAct(l, o.swiglu), layerAct(l, o.gate), layerAct(l, o.up), btf);
        return;
    }

    float* ln1 = layerAct(l, o.ln1);
    float* q = layerAct(l, o.q);
    float* kk = layerAct(l, o.k);
    float* v = layerAct(l, o.v);
    k.rmsnormForward(ln1, layerAct(l, o.ln1_rstd), x, w(P::InputLayernorm), N, C, eps);
    k.matmulForward(q, ln1, w(P::QProj), w(P::QBias), N, C, Q);
    k.matmulForward(kk, ln1, w(P::KProj), w(P::KBias), N, C, KV);
    k.matmulForward(v, ln1, w(P::VProj), w(P::VBias), N, C, KV);
    k.ropeForward(q, act(m_act.rope), B, T, NH, hd, Q);
    k.ropeForward(kk, act(m_act.rope), B, T, NKV, hd, KV);
    k.flashAttentionForward(layerAct(l, o.atty), layerAct(l, o.lse), q, kk, v,
                            FlashAttentionDims::separate(B, T, NH, NKV, hd));
    k.matmulForward(act(m_act.proj), layerAct(l, o.atty), w(P::OProj), nullptr, N, Q, C);
    k.residualForward(layerAct(l, o.residual2), x, act(m_act.proj), btc);
    k.rmsnormForward(layerAct(l, o.ln2), layerAct(l, o.ln2_rstd), layerAct(l, o.residual2),
                     w(P::PostAttentionLayernorm), N, C, eps);
    k.matmulForward(layerAct(l, o.gate), layerAct(l, o.ln2), w(P::GateProj), nullptr, N, C, F);
    k.matmulForward(layerAct(l, o.up), layerAct(l, o.ln2), w(P::UpProj), nullptr, N, C, F);
    k.swigluForward(layerAct(l, o.swiglu), layerAct(l, o.gate), layerAct(l, o.up), btf);
    if (pass == ForwardPass::Recompute)
        return;
    k.matmulForward(act(m_act.proj), layerAct(l, o.swiglu), w(P::DownProj), nullptr, N, F, C);
    k.residualForward(layerAct(l, o.residual3), layerAct(l, o.residual2), act(m_act.proj), btc);
}

float Llama::forward(const int* inputs, const int* targets, UnitAccess& access) {
    const ModelShape& s = m_shape;
    const int B = m_act.B, T = m_act.T, C = s.n_embd, N = B * T;
    const int L = s.n_layer, V = s.vocab_size, Vp = s.padded_vocab_size;
    const UnitLayout& emb = m_layout.units[ParamLayout::embeddingUnit()];
    const UnitLayout& fin = m_layout.units[m_layout.finalNormUnit()];
    Kernels& k = m_kernels;
    uploadTokens(inputs, targets);
    const int* dev_inputs = tokens();
    const int* dev_targets = tokens() + N;

    // The token embedding alone: Llama has no position table (RoPE rotates q and k).
    const float* pe = access.params(emb.index);
    k.encoderForward(act(m_act.encoded), dev_inputs, tensor(pe, emb, s, LlamaTensor::EmbedTokens),
                     nullptr, B, T, C);
    access.release(emb.index);

    for (int l = 0; l < L; ++l) {
        const int unit = m_layout.blockUnit(l);
        blockForward(l, access.params(unit));
        access.release(unit);
    }

    const float* pf = access.params(fin.index);
    k.rmsnormForward(act(m_act.lnf), act(m_act.lnf_rstd), layerAct(L - 1, m_act.layer.residual3),
                     tensor(pf, fin, s, LlamaTensor::Norm), N, C, static_cast<float>(s.norm_eps));
    // logits = norm(x) head^T over all Vp rows; the loss reads the first V.
    if (s.tied_head) {
        access.release(fin.index);
        pe = access.params(emb.index);
        k.matmulForward(act(m_act.logits), act(m_act.lnf), headWeight(pe, emb, s), nullptr, N, C,
                        Vp);
        access.release(emb.index);
    } else {
        k.matmulForward(act(m_act.logits), act(m_act.lnf), headWeight(pf, fin, s), nullptr, N, C,
                        Vp);
        access.release(fin.index);
    }
    k.softmaxCrossEntropyForward(act(m_act.losses), act(m_act.probs), act(m_act.logits),
                                 dev_targets, B, T, V, Vp);

    std::vector<float> losses(static_cast<std::size_t>(N));
    k.copyToHost(losses.data(), act(m_act.losses), losses.size() * sizeof(float));
    double sum = 0.0;
    for (float x : losses)
        sum += x;
    return static_cast<float>(sum / N);
}

void Llama::blockBackward(int l, const float* p, float* g) {
    const UnitLayout& u = m_layout.units[m_layout.blockUnit(l)];
    const LlamaLayerActivations& o = m_act.layer;
    const ModelShape& s = m_shape;
    const int B = m_act.B, T = m_act.T, C = s.n_embd, N = B * T, F = s.ffn_dim;
    const int NH = s.n_head, NKV = s.kvHeads(), hd = s.headDim(), Q = NH * hd, KV = NKV * hd;
    const std::size_t btc = static_cast<std::size_t>(N) * C, btf = static_cast<std::size_t>(N) * F;
    const std::size_t btq = static_cast<std::size_t>(N) * Q,
                      btkv = static_cast<std::size_t>(N) * KV;
    const float* x = blockInput(l);
    auto w = [&](LlamaTensor t) { return tensor(p, u, s, t); };
    auto dw = [&](LlamaTensor t) { return tensor(g, u, s, t); };
    using P = LlamaTensor;
    Kernels& k = m_kernels;
    // dresidual holds d residual3 on entry and d x (the block's input) on exit; proj is
    // d of a norm's output; dwide_a/b/c the wide gradients (llama_activations.h).
    float* dres = act(m_act.dresidual);
    float* dln = act(m_act.proj);
    float* dswiglu = act(m_act.dwide_a);
    float* dgate = act(m_act.dwide_b);
    float* dup = act(m_act.dwide_c);

    // MLP: residual3 = residual2 + down_proj(silu(gate_proj(h)) * up_proj(h)), h = ln2.
    k.zero(dswiglu, btf);
    k.matmulBackward(dswiglu, dw(P::DownProj), nullptr, dres, layerAct(l, o.swiglu), w(P::DownProj),
                     N, F, C);
    k.zero(dgate, btf); // swiglu, where the mode keeps it in dwide_b, is dead from here
    k.zero(dup, btf);
    k.swigluBackward(dgate, dup, dswiglu, layerAct(l, o.gate), layerAct(l, o.up), btf);
    k.zero(dln, btc);
    k.matmulBackward(dln, dw(P::GateProj), nullptr, dgate, layerAct(l, o.ln2), w(P::GateProj), N, C,
                     F);
    k.matmulBackward(dln, dw(P::UpProj), nullptr, dup, layerAct(l, o.ln2), w(P::UpProj), N, C, F);
    k.rmsnormBackward(dres, dw(P::PostAttentionLayernorm), dln, layerAct(l, o.residual2),
                      w(P::PostAttentionLayernorm), layerAct(l, o.ln2_rstd), N, C);

    // Attention: residual2 = x + o_proj(attn(rope(q_proj(h)), rope(k_proj(h)), v_proj(h))),
    // h = ln1.
    float* datty = act(m_act.dwide_b);
    float* dq = act(m_act.dwide_a);
    float* dk = dq + btq;
    float* dv = dk + btkv;
    k.zero(datty, btq);
    k.matmulBackward(datty, dw(P::OProj), nullptr, dres, layerAct(l, o.atty), w(P::OProj), N, Q, C);
    k.zero(dq, btq + 2 * btkv);
    k.flashAttentionBackward(dq, dk, dv, act(m_act.delta), datty, layerAct(l, o.atty),
                             layerAct(l, o.lse), layerAct(l, o.q), layerAct(l, o.k),
                             layerAct(l, o.v), FlashAttentionDims::separate(B, T, NH, NKV, hd));
    // d of the rotated q, k to d of the projections' outputs: the inverse rotation.
    k.ropeBackward(dq, act(m_act.rope), B, T, NH, hd, Q);
    k.ropeBackward(dk, act(m_act.rope), B, T, NKV, hd, KV);
    const float* ln1 = layerAct(l, o.ln1);
    k.zero(dln, btc);
    k.matmulBackward(dln, dw(P::QProj), dw(P::QBias), dq, ln1, w(P::QProj), N, C, Q);
    k.matmulBackward(dln, dw(P::KProj), dw(P::KBias), dk, ln1, w(P::KProj), N, C, KV);
    k.matmulBackward(dln, dw(P::VProj), dw(P::VBias), dv, ln1, w(P::VProj), N, C, KV);
    k.rmsnormBackward(dres, dw(P::InputLayernorm), dln, x, w(P::InputLayernorm),
                      layerAct(l, o.ln1_rstd), N, C);
}

void Llama::backward(const int* inputs, const int* targets, UnitAccess& access, float grad_scale) {
    const ModelShape& s = m_shape;
    const int B = m_act.B, T = m_act.T, C = s.n_embd, N = B * T;
    const int L = s.n_layer, V = s.vocab_size, Vp = s.padded_vocab_size;
    const UnitLayout& emb = m_layout.units[ParamLayout::embeddingUnit()];
    const UnitLayout& fin = m_layout.units[m_layout.finalNormUnit()];
    const std::size_t btc = static_cast<std::size_t>(N) * C;
    Kernels& k = m_kernels;
    uploadTokens(inputs, targets);
    const int* dev_inputs = tokens();
    const int* dev_targets = tokens() + N;

    // d loss / d losses[b,t] = grad_scale / (B*T) for the mean; written over `losses`.
    const std::vector<float> dlosses(static_cast<std::size_t>(N), grad_scale / N);
    k.copyToDevice(act(m_act.losses), dlosses.data(), dlosses.size() * sizeof(float));
    float* dlogits = act(m_act.logits);
    k.zero(dlogits, static_cast<std::size_t>(N) * Vp);
    k.crossEntropySoftmaxBackward(dlogits, act(m_act.losses), act(m_act.probs), dev_targets, B, T,
                                  V, Vp);

    // The lm head (tied: embed_tokens of unit 0; untied: lm_head of the final unit) and the
    // final norm.
    const float* pf = access.params(fin.index);
    const float* pe = s.tied_head ? access.params(emb.index) : nullptr;
    float* ge = s.tied_head ? access.grads(emb.index) : nullptr;
    float* gf = access.grads(fin.index);
    float* dln = act(m_act.proj);
    k.zero(dln, btc);
    if (s.tied_head) {
        k.matmulBackward(dln, headWeight(ge, emb, s), nullptr, dlogits, act(m_act.lnf),
                         headWeight(pe, emb, s), N, C, Vp);
        access.release(emb.index);
    } else {
        k.matmulBackward(dln, headWeight(gf, fin, s), nullptr, dlogits, act(m_act.lnf),
                         headWeight(pf, fin, s), N, C, Vp);
    }
    float* dres = act(m_act.dresidual);
    k.zero(dres, btc);
    k.rmsnormBackward(dres, tensor(gf, fin, s, LlamaTensor::Norm), dln,
                      layerAct(L - 1, m_act.layer.residual3), tensor(pf, fin, s, LlamaTensor::Norm),
                      act(m_act.lnf_rstd), N, C);
    access.release(fin.index);
    access.gradsReady(fin.index);

    for (int l = L - 1; l >= 0; --l) {
        const int unit = m_layout.blockUnit(l);
        const float* p = access.params(unit);
        if (m_act.recompute != Recompute::None) {
            access.recomputing(unit);
            blockForward(l, p, ForwardPass::Recompute);
        }
        blockBackward(l, p, access.grads(unit));
        access.release(unit);
        access.gradsReady(unit);
    }

    // The embedding's backward scatters d x into the rows of its tokens (no positions).
    ge = access.grads(emb.index);
    k.encoderBackward(tensor(ge, emb, s, LlamaTensor::EmbedTokens), nullptr, dres, dev_inputs, B, T,
                      C);
    access.gradsReady(emb.index);
}

std::unique_ptr<Network> makeLlamaNetwork(const ModelShape& shape, int B, int T, Kernels& kernels,
                                          MemoryLedger& ledger, Recompute recompute) {
    return std::make_unique<Llama>(shape, B, T, kernels, ledger, recompute);
}

} // namespace zerolab
