// Builds the activation arena layout of activation_layout.h: the layer-independent
// buffers and gradient scratch, then the forward activations of each layer.
#include "runtime/model/gpt2/gpt2_activations.h"

#include "runtime/model/activation_arena.h"

#include <stdexcept>
#include <string>

namespace zerolab {

Gpt2ActivationLayout makeGpt2ActivationLayout(const ModelShape& s, int B, int T,
                                              Recompute recompute) {
    if (B < 1 || T < 1 || T > s.seq_len || s.n_layer < 1 || s.n_head < 1 || s.n_embd < 1 ||
        s.padded_vocab_size < 1)
        throw std::invalid_argument(
            "activation layout: need B >= 1 and 1 <= T <= seq_len (" + std::to_string(s.seq_len) +
            ") on a non-empty shape; got B=" + std::to_string(B) + " T=" + std::to_string(T));
    const std::int64_t C = s.n_embd, NH = s.n_head, Vp = s.padded_vocab_size;
    const bool flash = s.attention == AttentionKernel::Flash;
    // B, T and the shape are untrusted (a config, a command line): every size is checked
    // before anything is allocated from it (activation_arena.h).
    const BoundedFloats bounded(
        "micro-batch " + std::to_string(B) + " x seq " + std::to_string(T) +
        " on L=" + std::to_string(s.n_layer) + " NH=" + std::to_string(s.n_head) +
        " C=" + std::to_string(s.n_embd) + " Vp=" + std::to_string(s.padded_vocab_size));
    const std::int64_t BT = bounded.product({B, T}), BTC = bounded.product({BT, C});
    // Standard's (B,NH,T,T) scores and probabilities; Flash's (B,NH,T) rows (lse, delta).
    const std::int64_t att = flash ? 0 : bounded.product({B, NH, T, T});
    const std::int64_t rows = bounded.product({B, NH, T});
    const std::int64_t wide = bounded.product({4, BTC}), BTVp = bounded.product({BT, Vp});

    Gpt2ActivationLayout a;
    a.B = B;
    a.T = T;
    a.recompute = recompute;
    a.attention = s.attention;

    ArenaCursor other(bounded);
    a.tokens = other.take(bounded.product({2, BT}));
    a.encoded = other.take(BTC);
    if (!flash)
        a.preatt = other.take(att);
    a.proj = other.take(BTC);
    a.lnf = other.take(BTC);
    a.lnf_mean = other.take(BT);
    a.lnf_rstd = other.take(BT);
    a.logits = other.take(BTVp);
    a.probs = other.take(BTVp);
    a.losses = other.take(BT);
    a.dresidual = other.take(BTC);
    a.dwide_a = other.take(wide);
    a.dwide_b = other.take(wide);
    if (flash)
        a.delta = other.take(rows);
    else
        a.datt = other.take(att);

    // A layer block holds the slots the mode keeps; the others live once: selective
    // puts ln1, ln2 and Standard's att in buffers of their own, full every slot in one
    // shared block laid out like a layer block; both put fch_gelu in dwide_b (see the
    // header).
    const bool full = recompute == Recompute::Full;
    const bool selective = recompute == Recompute::Selective;
    if (selective) {
        a.recompute_ln1 = other.take(BTC);
        a.recompute_ln2 = other.take(BTC);
        if (!flash)
            a.recompute_att = other.take(att);
    }
    if (full)
        a.recompute_block = other.size();
    ArenaCursor layer(bounded), block(bounded);
    auto keptOrBlock = [&](std::int64_t floats) {
        return full ? ActivationSlot{a.recompute_block + block.take(floats), false}
                    : ActivationSlot{layer.take(floats), true};
    };
    Gpt2LayerActivations& o = a.layer;
    o.ln1 = selective ? ActivationSlot{a.recompute_ln1, false} : keptOrBlock(BTC);
    o.ln1_mean = keptOrBlock(BT);
    o.ln1_rstd = keptOrBlock(BT);
    o.qkv = keptOrBlock(bounded.product({3, BTC}));
    o.atty = keptOrBlock(BTC);
    if (flash)
        o.att = kAbsentSlot;
    else
        o.att = selective ? ActivationSlot{a.recompute_att, false} : keptOrBlock(att);
    o.lse = flash ? keptOrBlock(rows) : kAbsentSlot;
    o.residual2 = keptOrBlock(BTC);
    o.ln2 = selective ? ActivationSlot{a.recompute_ln2, false} : keptOrBlock(BTC);
    o.ln2_mean = keptOrBlock(BT);
    o.ln2_rstd = keptOrBlock(BT);
    o.fch = keptOrBlock(wide);
    o.fch_gelu = recompute == Recompute::None ? ActivationSlot{layer.take(wide), true}
                                              : ActivationSlot{a.dwide_b, false};
    o.residual3 = ActivationSlot{layer.take(BTC), true};
    if (full)
        other.take(block.size());
    a.other_floats = other.size();
    a.layer_stride = layer.size();

    a.layers = a.other_floats;
    a.total_floats = bounded.sum(a.other_floats, bounded.product({a.layer_stride, s.n_layer}));
    return a;
}

ActivationFootprint gpt2ActivationFootprint(const ModelShape& s, int B, int T,
                                            Recompute recompute) {
    const Gpt2ActivationLayout a = makeGpt2ActivationLayout(s, B, T, recompute);
    return {static_cast<long long>(a.layer_stride * sizeof(float)),
            static_cast<long long>(a.other_floats * sizeof(float))};
}

} // namespace zerolab
