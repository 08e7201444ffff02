// Double-precision Llama forward, loops written straight from HF's modeling_llama.py:
// x = embed[tok]; per block h = rmsnorm(x) w; q, k, v = h W^T (+ b); q, k rotated
// (rotate_half) at position t; causal softmax(q k^T / sqrt(hd)) v with kv head
// h / (NH/NKV); x += o_proj; h = rmsnorm(x) w; x += down(silu(gate(h)) * up(h));
// logits = rmsnorm(x) w head^T.
#include "reference_llama.h"

#include "kernels/rope.h"

#include <algorithm>
#include <cmath>

namespace zerolab::test {

namespace {

using Mat = std::vector<double>; // row-major (rows, cols)

void rmsNorm(Mat& out, const Mat& in, const double* w, int rows, int C, double eps) {
    out.assign(in.size(), 0.0);
    for (int r = 0; r < rows; ++r) {
        const double* x = &in[static_cast<std::size_t>(r) * C];
        double ms = 0.0;
        for (int c = 0; c < C; ++c)
            ms += x[c] * x[c];
        const double rstd = 1.0 / std::sqrt(ms / C + eps);
        for (int c = 0; c < C; ++c)
            out[static_cast<std::size_t>(r) * C + c] = x[c] * rstd * w[c];
    }
}

// out(rows, OC) = in(rows, C) w(OC, C)^T + b(OC) (b may be null).
void linear(Mat& out, const Mat& in, const double* w, const double* b, int rows, int C, int OC) {
    out.assign(static_cast<std::size_t>(rows) * OC, 0.0);
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < OC; ++o) {
            double s = b ? b[o] : 0.0;
            for (int c = 0; c < C; ++c)
                s += in[static_cast<std::size_t>(r) * C + c] *
                     w[static_cast<std::size_t>(o) * C + c];
            out[static_cast<std::size_t>(r) * OC + o] = s;
        }
}

// HF's inv_freq: theta^(-2i/hd), / factor for "linear"; "llama3" through ropeInvFreq
// (whose bands the kernel tests check by hand).
std::vector<double> invFreq(const ModelShape& s) {
    const int hd = s.headDim();
    const RopeScalingSpec& r = s.rope_scaling;
    if (r.type == RopeScalingType::Llama3)
        return ropeInvFreq(hd, s.rope_theta,
                           RopeScaling{r.factor, r.low_freq_factor, r.high_freq_factor,
                                       static_cast<double>(r.original_max_position_embeddings)});
    std::vector<double> f(static_cast<std::size_t>(hd / 2));
    for (int i = 0; i < hd / 2; ++i)
        f[i] = std::pow(s.rope_theta, -2.0 * i / hd) /
               (r.type == RopeScalingType::Linear ? r.factor : 1.0);
    return f;
}

// Rotates every head of every row of x (rows = B*T, position t = row % T) in place.
void rope(Mat& x, int rows, int T, int heads, int hd, const std::vector<double>& f) {
    const int j = hd / 2, width = heads * hd;
    for (int r = 0; r < rows; ++r)
        for (int h = 0; h < heads; ++h) {
            double* v = &x[static_cast<std::size_t>(r) * width + h * hd];
            for (int i = 0; i < j; ++i) {
                const double a = (r % T) * f[i], c = std::cos(a), sn = std::sin(a);
                const double lo = v[i], hi = v[i + j];
                v[i] = lo * c - hi * sn;
                v[i + j] = hi * c + lo * sn;
            }
        }
}

} // namespace

double referenceLlamaLoss(const ParamLayout& layout, const std::vector<double>& params,
                          const std::vector<int>& inputs, const std::vector<int>& targets, int B,
                          int T) {
    const ModelShape& s = layout.shape;
    const int C = s.n_embd, NH = s.n_head, NKV = s.kvHeads(), hd = s.headDim(), L = s.n_layer;
    const int Q = NH * hd, KV = NKV * hd, F = s.ffn_dim, group = NH / NKV;
    const int V = s.vocab_size, Vp = s.padded_vocab_size, N = B * T;
    using P = LlamaTensor;
    auto W = [&](P t, int l = 0) { return params.data() + layout.flatOffset(t, l); };
    auto bias = [&](P t, int l) { return s.qkv_bias ? W(t, l) : nullptr; };
    const std::vector<double> f = invFreq(s);

    Mat x(static_cast<std::size_t>(N) * C);
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            x[static_cast<std::size_t>(n) * C + c] =
                W(P::EmbedTokens)[static_cast<std::size_t>(inputs[n]) * C + c];

    Mat h, q, k, v, y, proj, gate, up;
    for (int l = 0; l < L; ++l) {
        rmsNorm(h, x, W(P::InputLayernorm, l), N, C, s.norm_eps);
        linear(q, h, W(P::QProj, l), bias(P::QBias, l), N, C, Q);
        linear(k, h, W(P::KProj, l), bias(P::KBias, l), N, C, KV);
        linear(v, h, W(P::VProj, l), bias(P::VBias, l), N, C, KV);
        rope(q, N, T, NH, hd, f);
        rope(k, N, T, NKV, hd, f);
        y.assign(static_cast<std::size_t>(N) * Q, 0.0);
        for (int b = 0; b < B; ++b)
            for (int hq = 0; hq < NH; ++hq)
                for (int t = 0; t < T; ++t) {
                    const int g = hq / group;
                    const double* qr = &q[(static_cast<std::size_t>(b) * T + t) * Q + hq * hd];
                    std::vector<double> score(t + 1);
                    double mx = -1e300;
                    for (int u = 0; u <= t; ++u) {
                        const double* kr = &k[(static_cast<std::size_t>(b) * T + u) * KV + g * hd];
                        double d = 0.0;
                        for (int i = 0; i < hd; ++i)
                            d += qr[i] * kr[i];
                        score[u] = d / std::sqrt(static_cast<double>(hd));
                        mx = std::max(mx, score[u]);
                    }
                    double z = 0.0;
                    for (double& e : score)
                        z += (e = std::exp(e - mx));
                    for (int u = 0; u <= t; ++u) {
                        const double* vr = &v[(static_cast<std::size_t>(b) * T + u) * KV + g * hd];
                        for (int i = 0; i < hd; ++i)
                            y[(static_cast<std::size_t>(b) * T + t) * Q + hq * hd + i] +=
                                score[u] / z * vr[i];
                    }
                }
        linear(proj, y, W(P::OProj, l), nullptr, N, Q, C);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += proj[i];
        rmsNorm(h, x, W(P::PostAttentionLayernorm, l), N, C, s.norm_eps);
        linear(gate, h, W(P::GateProj, l), nullptr, N, C, F);
        linear(up, h, W(P::UpProj, l), nullptr, N, C, F);
        for (std::size_t i = 0; i < gate.size(); ++i)
            gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
        linear(proj, gate, W(P::DownProj, l), nullptr, N, F, C);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += proj[i];
    }
    rmsNorm(h, x, W(P::Norm), N, C, s.norm_eps);
    Mat logits;
    linear(logits, h, W(s.tied_head ? P::EmbedTokens : P::LmHead), nullptr, N, C, Vp);

    double loss = 0.0;
    for (int n = 0; n < N; ++n) {
        const double* z = &logits[static_cast<std::size_t>(n) * Vp];
        double mx = -1e300;
        for (int c = 0; c < V; ++c)
            mx = std::max(mx, z[c]);
        double sum = 0.0;
        for (int c = 0; c < V; ++c)
            sum += std::exp(z[c] - mx);
        loss += std::log(sum) + mx - z[targets[n]];
    }
    return loss / N;
}

} // namespace zerolab::test
