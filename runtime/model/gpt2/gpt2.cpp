// GPT-2 forward and backward over the Kernels ops, one gather unit at a time, in
// the call order documented in gpt2.h. Shapes: B, T micro-batch; C channels; NH heads.
#include "runtime/model/gpt2/gpt2.h"

#include <memory>
#include <vector>

namespace zerolab {

namespace {

// A parameter (or gradient) tensor of a unit buffer laid out as `unit`.
template <typename F> F* tensor(F* unit_base, const UnitLayout& unit, Gpt2Tensor t) {
    return unit_base + unit.tensorOffset(t);
}

} // namespace

Gpt2::Gpt2(const ModelShape& shape, int B, int T, Kernels& kernels, MemoryLedger& ledger,
           Recompute recompute)
    : m_shape(shape), m_layout(makeParamLayout(shape, 1)),
      m_act(makeGpt2ActivationLayout(shape, B, T, recompute)), m_kernels(kernels),
      m_ledger(ledger) {
    m_arena_bytes = static_cast<long long>(m_act.total_floats * sizeof(float));
    m_arena = static_cast<float*>(m_kernels.allocate(static_cast<std::size_t>(m_arena_bytes)));
    m_ledger.add(MemCategory::Activations, m_arena_bytes);
}

Gpt2::~Gpt2() {
    m_kernels.release(m_arena);
    m_ledger.sub(MemCategory::Activations, m_arena_bytes);
}

void Gpt2::uploadTokens(const int* inputs, const int* targets) {
    const std::size_t bt = static_cast<std::size_t>(m_act.B) * m_act.T;
    m_kernels.copyToDevice(tokens(), inputs, bt * sizeof(int));
    m_kernels.copyToDevice(tokens() + bt, targets, bt * sizeof(int));
}

void Gpt2::attentionForward(int l) {
    const Gpt2LayerActivations& o = m_act.layer;
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, NH = m_shape.n_head;
    const float* qkv = layerAct(l, o.qkv);
    if (m_act.attention == AttentionKernel::Flash)
        m_kernels.flashAttentionForward(layerAct(l, o.atty), layerAct(l, o.lse), qkv, qkv + C,
                                        qkv + 2 * C, FlashAttentionDims::packedQkv(B, T, C, NH));
    else
        m_kernels.attentionForward(layerAct(l, o.atty), act(m_act.preatt), layerAct(l, o.att), qkv,
                                   B, T, C, NH);
}

// dpreatt and datt (Standard) or delta (Flash) are the shared scratch of the arena.
void Gpt2::attentionBackward(int l, float* dqkv, const float* datty) {
    const Gpt2LayerActivations& o = m_act.layer;
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, NH = m_shape.n_head;
    const float* qkv = layerAct(l, o.qkv);
    if (m_act.attention == AttentionKernel::Flash)
        m_kernels.flashAttentionBackward(dqkv, dqkv + C, dqkv + 2 * C, act(m_act.delta), datty,
                                         layerAct(l, o.atty), layerAct(l, o.lse), qkv, qkv + C,
                                         qkv + 2 * C, FlashAttentionDims::packedQkv(B, T, C, NH));
    else
        m_kernels.attentionBackward(dqkv, act(m_act.preatt), act(m_act.datt), datty, qkv,
                                    layerAct(l, o.att), B, T, C, NH);
}

// pass Train: the block's forward, writing every slot and the block's output
// residual3. pass Recompute: in backward, before blockBackward(l), the activations
// the mode does not keep, by the same kernel calls on the same inputs as in Train:
//   selective  ln1, ln2 (their statistics are rewritten with the same values), gelu,
//              and with Standard attention the attention core from the kept qkv (att;
//              atty is rewritten with the same values): Korthikanti et al. 2022's
//              selective recomputation. Flash keeps its lse, so nothing of it is redone.
//   full       everything up to the GELU; fcproj and residual3 are not needed again.
void Gpt2::blockForward(int l, const float* p, ForwardPass pass) {
    const UnitLayout& u = m_layout.units[m_layout.blockUnit(l)];
    const Gpt2LayerActivations& o = m_act.layer;
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, N = B * T;
    const std::size_t btc = static_cast<std::size_t>(N) * C;
    const float* residual = l == 0 ? act(m_act.encoded) : layerAct(l - 1, o.residual3);
    Kernels& k = m_kernels;
    if (pass == ForwardPass::Recompute && m_act.recompute == Recompute::Selective) {
        k.layernormForward(layerAct(l, o.ln1), layerAct(l, o.ln1_mean), layerAct(l, o.ln1_rstd),
                           residual, tensor(p, u, Gpt2Tensor::Ln1w), tensor(p, u, Gpt2Tensor::Ln1b),
                           N, C);
        if (m_act.attention == AttentionKernel::Standard)
            attentionForward(l);
        k.layernormForward(layerAct(l, o.ln2), layerAct(l, o.ln2_mean), layerAct(l, o.ln2_rstd),
                           layerAct(l, o.residual2), tensor(p, u, Gpt2Tensor::Ln2w),
                           tensor(p, u, Gpt2Tensor::Ln2b), N, C);
        k.geluForward(layerAct(l, o.fch_gelu), layerAct(l, o.fch), 4 * btc);
        return;
    }

    k.layernormForward(layerAct(l, o.ln1), layerAct(l, o.ln1_mean), layerAct(l, o.ln1_rstd),
                       residual, tensor(p, u, Gpt2Tensor::Ln1w), tensor(p, u, Gpt2Tensor::Ln1b), N,
                       C);
    k.matmulForward(layerAct(l, o.qkv), layerAct(l, o.ln1), tensor(p, u, Gpt2Tensor::Qkvw),
                    tensor(p, u, Gpt2Tensor::Qkvb), N, C, 3 * C);
    attentionForward(l);
    k.matmulForward(act(m_act.proj), layerAct(l, o.atty), tensor(p, u, Gpt2Tensor::Attprojw),
                    tensor(p, u, Gpt2Tensor::Attprojb), N, C, C);
    k.residualForward(layerAct(l, o.residual2), residual, act(m_act.proj), btc);
    k.layernormForward(layerAct(l, o.ln2), layerAct(l, o.ln2_mean), layerAct(l, o.ln2_rstd),
                       layerAct(l, o.residual2), tensor(p, u, Gpt2Tensor::Ln2w),
                       tensor(p, u, Gpt2Tensor::Ln2b), N, C);
    k.matmulForward(layerAct(l, o.fch), layerAct(l, o.ln2), tensor(p, u, Gpt2Tensor::Fcw),
                    tensor(p, u, Gpt2Tensor::Fcb), N, C, 4 * C);
    k.geluForward(layerAct(l, o.fch_gelu), layerAct(l, o.fch), 4 * btc);
    if (pass == ForwardPass::Recompute)
        return;
    k.matmulForward(act(m_act.proj), layerAct(l, o.fch_gelu), tensor(p, u, Gpt2Tensor::Fcprojw),
                    tensor(p, u, Gpt2Tensor::Fcprojb), N, 4 * C, C);
    k.residualForward(layerAct(l, o.residual3), layerAct(l, o.residual2), act(m_act.proj), btc);
}

float Gpt2::forward(const int* inputs, const int* targets, UnitAccess& access) {
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, N = B * T;
    const int L = m_shape.n_layer, V = m_shape.vocab_size, Vp = m_shape.padded_vocab_size;
    const UnitLayout& emb = m_layout.units[ParamLayout::embeddingUnit()];
    const UnitLayout& fin = m_layout.units[m_layout.finalNormUnit()];
    Kernels& k = m_kernels;
    uploadTokens(inputs, targets);
    const int* dev_inputs = tokens();
    const int* dev_targets = tokens() + N;

    const float* pe = access.params(emb.index);
    k.encoderForward(act(m_act.encoded), dev_inputs, tensor(pe, emb, Gpt2Tensor::Wte),
                     tensor(pe, emb, Gpt2Tensor::Wpe), B, T, C);
    access.release(emb.index);

    for (int l = 0; l < L; ++l) {
        const int unit = m_layout.blockUnit(l);
        blockForward(l, access.params(unit));
        access.release(unit);
    }

    const float* pf = access.params(fin.index);
    k.layernormForward(act(m_act.lnf), act(m_act.lnf_mean), act(m_act.lnf_rstd),
                       layerAct(L - 1, m_act.layer.residual3), tensor(pf, fin, Gpt2Tensor::Lnfw),
                       tensor(pf, fin, Gpt2Tensor::Lnfb), N, C);
    access.release(fin.index);

    // Tied lm-head: logits = lnf * wte^T over all Vp rows; the loss reads the first V.
    pe = access.params(emb.index);
    k.matmulForward(act(m_act.logits), act(m_act.lnf), tensor(pe, emb, Gpt2Tensor::Wte), nullptr, N,
                    C, Vp);
    access.release(emb.index);
    k.softmaxCrossEntropyForward(act(m_act.losses), act(m_act.probs), act(m_act.logits),
                                 dev_targets, B, T, V, Vp);

    std::vector<float> losses(static_cast<std::size_t>(N));
    k.copyToHost(losses.data(), act(m_act.losses), losses.size() * sizeof(float));
    double sum = 0.0;
    for (float x : losses)
        sum += x;
    return static_cast<float>(sum / N);
}

void Gpt2::blockBackward(int l, const float* p, float* g) {
    const UnitLayout& u = m_layout.units[m_layout.blockUnit(l)];
    const Gpt2LayerActivations& o = m_act.layer;
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, N = B * T;
    const std::size_t btc = static_cast<std::size_t>(N) * C;
    const float* residual = l == 0 ? act(m_act.encoded) : layerAct(l - 1, o.residual3);
    Kernels& k = m_kernels;
    // dresidual holds d residual3 on entry and d residual (the block's input) on exit;
    // proj is dln, dwide_a/dwide_b the wide gradients (activation_layout.h).
    float* dres = act(m_act.dresidual);
    float* dln = act(m_act.proj);
    float* dfch_gelu = act(m_act.dwide_a);
    float* dfch = act(m_act.dwide_b);

    // MLP: residual3 = residual2 + fcproj(gelu(fc(ln2(residual2)))).
    k.zero(dfch_gelu, 4 * btc);
    k.matmulBackward(dfch_gelu, tensor(g, u, Gpt2Tensor::Fcprojw),
                     tensor(g, u, Gpt2Tensor::Fcprojb), dres, layerAct(l, o.fch_gelu),
                     tensor(p, u, Gpt2Tensor::Fcprojw), N, 4 * C, C);
    k.zero(dfch, 4 * btc);
    k.geluBackward(dfch, layerAct(l, o.fch), dfch_gelu, 4 * btc);
    k.zero(dln, btc);
    k.matmulBackward(dln, tensor(g, u, Gpt2Tensor::Fcw), tensor(g, u, Gpt2Tensor::Fcb), dfch,
                     layerAct(l, o.ln2), tensor(p, u, Gpt2Tensor::Fcw), N, C, 4 * C);
    k.layernormBackward(dres, tensor(g, u, Gpt2Tensor::Ln2w), tensor(g, u, Gpt2Tensor::Ln2b), dln,
                        layerAct(l, o.residual2), tensor(p, u, Gpt2Tensor::Ln2w),
                        layerAct(l, o.ln2_mean), layerAct(l, o.ln2_rstd), N, C);

    // Attention: residual2 = residual + attproj(attention(qkv(ln1(residual)))).
    float* datty = dfch;
    float* dqkv = dfch_gelu;
    k.zero(datty, btc);
    k.matmulBackward(datty, tensor(g, u, Gpt2Tensor::Attprojw), tensor(g, u, Gpt2Tensor::Attprojb),
                     dres, layerAct(l, o.atty), tensor(p, u, Gpt2Tensor::Attprojw), N, C, C);
    k.zero(dqkv, 3 * btc);
    attentionBackward(l, dqkv, datty);
    k.zero(dln, btc);
    k.matmulBackward(dln, tensor(g, u, Gpt2Tensor::Qkvw), tensor(g, u, Gpt2Tensor::Qkvb), dqkv,
                     layerAct(l, o.ln1), tensor(p, u, Gpt2Tensor::Qkvw), N, C, 3 * C);
    k.layernormBackward(dres, tensor(g, u, Gpt2Tensor::Ln1w), tensor(g, u, Gpt2Tensor::Ln1b), dln,
                        residual, tensor(p, u, Gpt2Tensor::Ln1w), layerAct(l, o.ln1_mean),
                        layerAct(l, o.ln1_rstd), N, C);
}

void Gpt2::backward(const int* inputs, const int* targets, UnitAccess& access, float grad_scale) {
    const int B = m_act.B, T = m_act.T, C = m_shape.n_embd, N = B * T;
    const int L = m_shape.n_layer, V = m_shape.vocab_size, Vp = m_shape.padded_vocab_size;
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

    // lm-head (tied wte) and the final layernorm.
    const float* pf = access.params(fin.index);
    const float* pe = access.params(emb.index);
    float* ge = access.grads(emb.index);
    float* gf = access.grads(fin.index);
    float* dln = act(m_act.proj);
    k.zero(dln, btc);
    k.matmulBackward(dln, tensor(ge, emb, Gpt2Tensor::Wte), nullptr, dlogits, act(m_act.lnf),
                     tensor(pe, emb, Gpt2Tensor::Wte), N, C, Vp);
    access.release(emb.index);
    float* dres = act(m_act.dresidual);
    k.zero(dres, btc);
    k.layernormBackward(dres, tensor(gf, fin, Gpt2Tensor::Lnfw), tensor(gf, fin, Gpt2Tensor::Lnfb),
                        dln, layerAct(L - 1, m_act.layer.residual3),
                        tensor(pf, fin, Gpt2Tensor::Lnfw), act(m_act.lnf_mean), act(m_act.lnf_rstd),
                        N, C);
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

    ge = access.grads(emb.index);
    k.encoderBackward(tensor(ge, emb, Gpt2Tensor::Wte), tensor(ge, emb, Gpt2Tensor::Wpe), dres,
                      dev_inputs, B, T, C);
    access.gradsReady(emb.index);
}

std::unique_ptr<Network> makeGpt2Network(const ModelShape& shape, int B, int T, Kernels& kernels,
                                         MemoryLedger& ledger, Recompute recompute) {
    return std::make_unique<Gpt2>(shape, B, T, kernels, ledger, recompute);
}

} // namespace zerolab
