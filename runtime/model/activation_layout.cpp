// Builds the activation arena layout of activation_layout.h: the layer-independent
// buffers and gradient scratch, then the forward activations of each layer.
#include "runtime/model/activation_layout.h"

#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

constexpr std::int64_t kAlignFloats = 16; // 64 bytes

// Hands out aligned offsets one buffer after another.
class ArenaCursor {
public:
    std::int64_t take(std::int64_t floats) {
        const std::int64_t at = m_next;
        m_next += (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
        return at;
    }
    std::int64_t size() const { return m_next; }

private:
    std::int64_t m_next = 0;
};

} // namespace

ActivationLayout makeActivationLayout(const ModelShape& s, int B, int T, Recompute recompute) {
    if (B < 1 || T < 1 || T > s.seq_len || s.n_layer < 1 || s.n_head < 1 || s.n_embd < 1 ||
        s.padded_vocab_size < 1)
        throw std::invalid_argument(
            "activation layout: need B >= 1 and 1 <= T <= seq_len (" + std::to_string(s.seq_len) +
            ") on a non-empty shape; got B=" + std::to_string(B) + " T=" + std::to_string(T));
    const std::int64_t C = s.n_embd, NH = s.n_head, Vp = s.padded_vocab_size;
    const std::int64_t BT = std::int64_t{B} * T, BTC = BT * C, att = B * NH * T * T;

    ActivationLayout a;
    a.B = B;
    a.T = T;
    a.recompute = recompute;

    ArenaCursor other;
    a.tokens = other.take(2 * BT);
    a.encoded = other.take(BTC);
    a.preatt = other.take(att);
    a.proj = other.take(BTC);
    a.lnf = other.take(BTC);
    a.lnf_mean = other.take(BT);
    a.lnf_rstd = other.take(BT);
    a.logits = other.take(BT * Vp);
    a.probs = other.take(BT * Vp);
    a.losses = other.take(BT);
    a.dresidual = other.take(BTC);
    a.dwide_a = other.take(4 * BTC);
    a.dwide_b = other.take(4 * BTC);
    a.datt = other.take(att);

    // A layer block holds the slots the mode keeps; the others live once: selective
    // puts ln1 and ln2 in buffers of their own, full every slot in one shared block
    // laid out like a layer block; both put fch_gelu in dwide_b (see the header).
    const bool full = recompute == Recompute::Full;
    const bool selective = recompute == Recompute::Selective;
    if (selective) {
        a.recompute_ln1 = other.take(BTC);
        a.recompute_ln2 = other.take(BTC);
    }
    if (full)
        a.recompute_block = other.size();
    ArenaCursor layer, block;
    auto keptOrBlock = [&](std::int64_t floats) {
        return full ? ActivationSlot{a.recompute_block + block.take(floats), false}
                    : ActivationSlot{layer.take(floats), true};
    };
    LayerActivationOffsets& o = a.layer;
    o.ln1 = selective ? ActivationSlot{a.recompute_ln1, false} : keptOrBlock(BTC);
    o.ln1_mean = keptOrBlock(BT);
    o.ln1_rstd = keptOrBlock(BT);
    o.qkv = keptOrBlock(3 * BTC);
    o.atty = keptOrBlock(BTC);
    o.att = keptOrBlock(att);
    o.residual2 = keptOrBlock(BTC);
    o.ln2 = selective ? ActivationSlot{a.recompute_ln2, false} : keptOrBlock(BTC);
    o.ln2_mean = keptOrBlock(BT);
    o.ln2_rstd = keptOrBlock(BT);
    o.fch = keptOrBlock(4 * BTC);
    o.fch_gelu = recompute == Recompute::None ? ActivationSlot{layer.take(4 * BTC), true}
                                              : ActivationSlot{a.dwide_b, false};
    o.residual3 = ActivationSlot{layer.take(BTC), true};
    if (full)
        other.take(block.size());
    a.other_floats = other.size();
    a.layer_stride = layer.size();

    a.layers = a.other_floats;
    a.total_floats = a.other_floats + a.layer_stride * s.n_layer;
    return a;
}

ActivationFootprint activationFootprint(const ModelShape& s, int B, int T, Recompute recompute) {
    const ActivationLayout a = makeActivationLayout(s, B, T, recompute);
    return {static_cast<long long>(a.layer_stride * sizeof(float)),
            static_cast<long long>(a.other_floats * sizeof(float))};
}

} // namespace zerolab
