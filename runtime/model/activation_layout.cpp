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

ActivationLayout makeActivationLayout(const ModelShape& s, int B, int T) {
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
    a.other_floats = other.size();

    ArenaCursor layer;
    LayerActivationOffsets& o = a.layer;
    o.ln1 = layer.take(BTC);
    o.ln1_mean = layer.take(BT);
    o.ln1_rstd = layer.take(BT);
    o.qkv = layer.take(3 * BTC);
    o.atty = layer.take(BTC);
    o.att = layer.take(att);
    o.residual2 = layer.take(BTC);
    o.ln2 = layer.take(BTC);
    o.ln2_mean = layer.take(BT);
    o.ln2_rstd = layer.take(BT);
    o.fch = layer.take(4 * BTC);
    o.fch_gelu = layer.take(4 * BTC);
    o.residual3 = layer.take(BTC);
    a.layer_stride = layer.size();

    a.layers = a.other_floats;
    a.total_floats = a.other_floats + a.layer_stride * s.n_layer;
    return a;
}

ActivationFootprint activationFootprint(const ModelShape& s, int B, int T) {
    const ActivationLayout a = makeActivationLayout(s, B, T);
    return {static_cast<long long>(a.layer_stride * sizeof(float)),
            static_cast<long long>(a.other_floats * sizeof(float))};
}

} // namespace zerolab
