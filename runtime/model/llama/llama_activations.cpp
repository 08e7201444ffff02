// Builds the Llama activation arena of llama_activations.h: the layer-independent
// buffers and gradient scratch, then the forward activations each block keeps.
#include "runtime/model/llama/llama_activations.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

std::string describe(const ModelShape& s, int B, int T) {
    return "micro-batch " + std::to_string(B) + " x seq " + std::to_string(T) +
           " on L=" + std::to_string(s.n_layer) + " NH=" + std::to_string(s.n_head) +
           " NKV=" + std::to_string(s.kvHeads()) + " head_dim=" + std::to_string(s.headDim()) +
           " C=" + std::to_string(s.n_embd) + " F=" + std::to_string(s.ffn_dim) +
           " Vp=" + std::to_string(s.padded_vocab_size);
}

void checkShape(const ModelShape& s, int B, int T) {
    if (s.attention != AttentionKernel::Flash)
        throw std::invalid_argument(
            "Llama family: model.attention is \"" + std::string(attentionKernelName(s.attention)) +
            "\", but the Llama family runs flash attention only (the (T,T) scores are never kept)");
    if (B < 1 || T < 1 || T > s.seq_len || s.n_layer < 1 || s.n_head < 1 || s.n_embd < 1 ||
        s.padded_vocab_size < 1)
        throw std::invalid_argument(
            "activation layout: need B >= 1 and 1 <= T <= seq_len (" + std::to_string(s.seq_len) +
            ") on a non-empty shape; got B=" + std::to_string(B) + " T=" + std::to_string(T));
    if (s.kvHeads() < 1 || s.n_head % s.kvHeads() != 0)
        throw std::invalid_argument("Llama family: n_kv_head = " + std::to_string(s.kvHeads()) +
                                    " must divide n_head = " + std::to_string(s.n_head));
    if (s.headDim() < 2 || s.headDim() % 2 != 0)
        throw std::invalid_argument("Llama family: head_dim = " + std::to_string(s.headDim()) +
                                    " must be even and positive (RoPE rotates pairs)");
    if (s.ffn_dim < 1)
        throw std::invalid_argument("Llama family: ffn_dim = " + std::to_string(s.ffn_dim) +
                                    " must be positive");
}

} // namespace

LlamaActivationLayout makeLlamaActivationLayout(const ModelShape& s, int B, int T,
                                                Recompute recompute) {
    checkShape(s, B, T);
    const BoundedFloats bounded(describe(s, B, T));
    const std::int64_t C = s.n_embd, NH = s.n_head, hd = s.headDim(), F = s.ffn_dim;
    const std::int64_t Q = bounded.product({NH, hd}), KV = bounded.product({s.kvHeads(), hd});
    const std::int64_t BT = bounded.product({B, T}), BTC = bounded.product({BT, C});
    const std::int64_t BTQ = bounded.product({BT, Q}), BTKV = bounded.product({BT, KV});
    const std::int64_t BTF = bounded.product({BT, F}), rows = bounded.product({BT, NH});
    const std::int64_t BTVp = bounded.product({BT, s.padded_vocab_size});

    LlamaActivationLayout a;
    a.B = B;
    a.T = T;
    a.recompute = recompute;

    ArenaCursor other(bounded);
    a.tokens = other.take(bounded.product({2, BT}));
    a.rope_floats = bounded.product({T, hd});
    a.rope = other.take(a.rope_floats);
    a.encoded = other.take(BTC);
    a.proj = other.take(BTC);
    a.lnf = other.take(BTC);
    a.lnf_rstd = other.take(BT);
    a.logits = other.take(BTVp);
    a.probs = other.take(BTVp);
    a.losses = other.take(BT);
    a.dresidual = other.take(BTC);
    a.dwide_a = other.take(std::max(BTF, bounded.sum(BTQ, bounded.product({2, BTKV}))));
    a.dwide_b = other.take(std::max(BTF, BTQ));
    a.dwide_c = other.take(BTF);
    a.delta = other.take(rows);

    // A layer block holds the slots the mode keeps; the others live once (the header).
    const bool full = recompute == Recompute::Full;
    const bool selective = recompute == Recompute::Selective;
    if (selective) {
        a.recompute_ln1 = other.take(BTC);
        a.recompute_ln2 = other.take(BTC);
    }
    if (full)
        a.recompute_block = other.size();
    ArenaCursor layer(bounded), block(bounded);
    auto keptOrBlock = [&](std::int64_t floats) {
        return full ? ArenaSlot{a.recompute_block + block.take(floats), false}
                    : ArenaSlot{layer.take(floats), true};
    };
    LlamaLayerActivations& o = a.layer;
    o.ln1_rstd = keptOrBlock(BT);
    o.ln1 = selective ? ArenaSlot{a.recompute_ln1, false} : keptOrBlock(BTC);
    o.q = keptOrBlock(BTQ);
    o.k = keptOrBlock(BTKV);
    o.v = keptOrBlock(BTKV);
    o.atty = keptOrBlock(BTQ);
    o.lse = keptOrBlock(rows);
    o.residual2 = keptOrBlock(BTC);
    o.ln2_rstd = keptOrBlock(BT);
    o.ln2 = selective ? ArenaSlot{a.recompute_ln2, false} : keptOrBlock(BTC);
    o.gate = keptOrBlock(BTF);
    o.up = keptOrBlock(BTF);
    o.swiglu = recompute == Recompute::None ? ArenaSlot{layer.take(BTF), true}
                                            : ArenaSlot{a.dwide_b, false};
    o.residual3 = ArenaSlot{layer.take(BTC), true};
    if (full)
        other.take(block.size());
    a.other_floats = other.size();
    a.layer_stride = layer.size();

    a.layers = a.other_floats;
    a.total_floats = bounded.sum(a.other_floats, bounded.product({a.layer_stride, s.n_layer}));
    return a;
}

ActivationFootprint llamaActivationFootprint(const ModelShape& s, int B, int T,
                                             Recompute recompute) {
    const LlamaActivationLayout a = makeLlamaActivationLayout(s, B, T, recompute);
    return {static_cast<long long>(a.layer_stride * sizeof(float)),
            static_cast<long long>(a.other_floats * sizeof(float))};
}

} // namespace zerolab
