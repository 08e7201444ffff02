// Double-precision GPT-2 forward, loops written straight from the math:
// x = wte[tok] + wpe[t]; per block x += attn(ln1(x)); x += mlp(ln2(x)); logits = lnf(x) wte^T.
#include "reference_gpt2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace zerolab::test {

namespace {

using Mat = std::vector<double>; // row-major (rows, cols)

void layerNorm(Mat& out, const Mat& in, const double* w, const double* b, int rows, int C) {
    out.assign(in.size(), 0.0);
    for (int r = 0; r < rows; ++r) {
        const double* x = &in[static_cast<std::size_t>(r) * C];
        double mean = 0.0, var = 0.0;
        for (int c = 0; c < C; ++c)
            mean += x[c];
        mean /= C;
        for (int c = 0; c < C; ++c)
            var += (x[c] - mean) * (x[c] - mean);
        var /= C;
        const double rstd = 1.0 / std::sqrt(var + 1e-5);
        for (int c = 0; c < C; ++c)
            out[static_cast<std::size_t>(r) * C + c] = (x[c] - mean) * rstd * w[c] + b[c];
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

double gelu(double x) {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

} // namespace

double referenceLoss(const ParamLayout& layout, const std::vector<double>& params,
                     const std::vector<int>& inputs, const std::vector<int>& targets, int B,
                     int T) {
    const ModelShape& s = layout.shape;
    const int C = s.n_embd, NH = s.n_head, hs = C / NH, L = s.n_layer;
    const int V = s.vocab_size, Vp = s.padded_vocab_size, N = B * T;
    auto P = [&](Gpt2Tensor t, int l = 0) { return params.data() + layout.flatOffset(t, l); };

    Mat x(static_cast<std::size_t>(N) * C);
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t)
            for (int c = 0; c < C; ++c)
                x[(static_cast<std::size_t>(b) * T + t) * C + c] =
                    P(Gpt2Tensor::Wte)[static_cast<std::size_t>(inputs[b * T + t]) * C + c] +
                    P(Gpt2Tensor::Wpe)[static_cast<std::size_t>(t) * C + c];

    Mat h, qkv, y, proj, fc;
    for (int l = 0; l < L; ++l) {
        layerNorm(h, x, P(Gpt2Tensor::Ln1w, l), P(Gpt2Tensor::Ln1b, l), N, C);
        linear(qkv, h, P(Gpt2Tensor::Qkvw, l), P(Gpt2Tensor::Qkvb, l), N, C, 3 * C);
        y.assign(static_cast<std::size_t>(N) * C, 0.0);
        for (int b = 0; b < B; ++b)
            for (int hd = 0; hd < NH; ++hd)
                for (int t = 0; t < T; ++t) {
                    const double* q = &qkv[(static_cast<std::size_t>(b) * T + t) * 3 * C + hd * hs];
                    std::vector<double> score(t + 1);
                    double mx = -1e300;
                    for (int u = 0; u <= t; ++u) {
                        const double* k =
                            &qkv[(static_cast<std::size_t>(b) * T + u) * 3 * C + C + hd * hs];
                        double d = 0.0;
                        for (int i = 0; i < hs; ++i)
                            d += q[i] * k[i];
                        score[u] = d / std::sqrt(static_cast<double>(hs));
                        mx = std::max(mx, score[u]);
                    }
                    double z = 0.0;
                    for (double& e : score)
                        z += (e = std::exp(e - mx));
                    for (int u = 0; u <= t; ++u) {
                        const double* v =
                            &qkv[(static_cast<std::size_t>(b) * T + u) * 3 * C + 2 * C + hd * hs];
                        for (int i = 0; i < hs; ++i)
                            y[(static_cast<std::size_t>(b) * T + t) * C + hd * hs + i] +=
                                score[u] / z * v[i];
                    }
                }
        linear(proj, y, P(Gpt2Tensor::Attprojw, l), P(Gpt2Tensor::Attprojb, l), N, C, C);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += proj[i];
        layerNorm(h, x, P(Gpt2Tensor::Ln2w, l), P(Gpt2Tensor::Ln2b, l), N, C);
        linear(fc, h, P(Gpt2Tensor::Fcw, l), P(Gpt2Tensor::Fcb, l), N, C, 4 * C);
        for (double& e : fc)
            e = gelu(e);
        linear(proj, fc, P(Gpt2Tensor::Fcprojw, l), P(Gpt2Tensor::Fcprojb, l), N, 4 * C, C);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += proj[i];
    }
    layerNorm(h, x, P(Gpt2Tensor::Lnfw), P(Gpt2Tensor::Lnfb), N, C);
    Mat logits;
    linear(logits, h, P(Gpt2Tensor::Wte), nullptr, N, C, Vp);

    double loss = 0.0;
    for (int n = 0; n < N; ++n) {
        const double* z = &logits[static_cast<std::size_t>(n) * Vp];
        double mx = -1e300;
        for (int v = 0; v < V; ++v)
            mx = std::max(mx, z[v]);
        double sum = 0.0;
        for (int v = 0; v < V; ++v)
            sum += std::exp(z[v] - mx);
        loss += std::log(sum) + mx - z[targets[n]];
    }
    return loss / N;
}

} // namespace zerolab::test
