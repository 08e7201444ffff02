// Double-precision reference implementations of every kernel op: plain loops in
// llm.c's formulation, written for clarity, not speed. The gradient-check test
// validates their backward against central differences; the kernel tests then
// hold the fast fp32 kernels to these.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace zerolab::ref {

inline void encoderForward(double* out, const int* inp, const double* wte, const double* wpe, int B,
                           int T, int C) {
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t)
            for (int c = 0; c < C; ++c)
                out[(b * T + t) * C + c] = wte[inp[b * T + t] * C + c] + wpe[t * C + c];
}

inline void encoderBackward(double* dwte, double* dwpe, const double* dout, const int* inp, int B,
                            int T, int C) {
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t)
            for (int c = 0; c < C; ++c) {
                dwte[inp[b * T + t] * C + c] += dout[(b * T + t) * C + c];
                dwpe[t * C + c] += dout[(b * T + t) * C + c];
            }
}

inline void layernormForward(double* out, double* mean, double* rstd, const double* inp,
                             const double* w, const double* bias, int N, int C) {
    for (int n = 0; n < N; ++n) {
        const double* x = inp + n * C;
        double m = 0.0, var = 0.0;
        for (int c = 0; c < C; ++c)
            m += x[c];
        m /= C;
        for (int c = 0; c < C; ++c)
            var += (x[c] - m) * (x[c] - m);
        var /= C;
        const double s = 1.0 / std::sqrt(var + 1e-5);
        for (int c = 0; c < C; ++c)
            out[n * C + c] = (x[c] - m) * s * w[c] + bias[c];
        mean[n] = m;
        rstd[n] = s;
    }
}

inline void layernormBackward(double* dinp, double* dw, double* dbias, const double* dout,
                              const double* inp, const double* w, const double* mean,
                              const double* rstd, int N, int C) {
    for (int n = 0; n < N; ++n) {
        const double* x = inp + n * C;
        const double* d = dout + n * C;
        double dnormMean = 0.0, dnormNormMean = 0.0;
        for (int c = 0; c < C; ++c) {
            const double norm = (x[c] - mean[n]) * rstd[n];
            dnormMean += w[c] * d[c];
            dnormNormMean += w[c] * d[c] * norm;
        }
        dnormMean /= C;
        dnormNormMean /= C;
        for (int c = 0; c < C; ++c) {
            const double norm = (x[c] - mean[n]) * rstd[n];
            dbias[c] += d[c];
            dw[c] += norm * d[c];
            dinp[n * C + c] += (w[c] * d[c] - dnormMean - norm * dnormNormMean) * rstd[n];
        }
    }
}

inline void matmulForward(double* out, const double* inp, const double* w, const double* bias,
                          int N, int C, int OC) {
    for (int n = 0; n < N; ++n)
        for (int o = 0; o < OC; ++o) {
            double acc = bias != nullptr ? bias[o] : 0.0;
            for (int c = 0; c < C; ++c)
                acc += inp[n * C + c] * w[o * C + c];
            out[n * OC + o] = acc;
        }
}

inline void matmulBackward(double* dinp, double* dw, double* dbias, const double* dout,
                           const double* inp, const double* w, int N, int C, int OC) {
    for (int n = 0; n < N; ++n)
        for (int o = 0; o < OC; ++o) {
            const double d = dout[n * OC + o];
            for (int c = 0; c < C; ++c) {
                if (dinp != nullptr)
                    dinp[n * C + c] += w[o * C + c] * d;
                dw[o * C + c] += inp[n * C + c] * d;
            }
            if (dbias != nullptr)
                dbias[o] += d;
        }
}

// qkv(B,T,3C); out(B,T,C); preatt, att (B,NH,T,T), entries above the diagonal 0.
inline void attentionForward(double* out, double* preatt, double* att, const double* qkv, int B,
                             int T, int C, int NH) {
    const int C3 = 3 * C, hs = C / NH;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < NH; ++h)
            for (int t = 0; t < T; ++t) {
                const double* q = qkv + (b * T + t) * C3 + h * hs;
                double* p = preatt + ((b * NH + h) * T + t) * T;
                double* a = att + ((b * NH + h) * T + t) * T;
                double maxv = -1e300;
                for (int t2 = 0; t2 <= t; ++t2) {
                    const double* k = qkv + (b * T + t2) * C3 + h * hs + C;
                    double dot = 0.0;
                    for (int i = 0; i < hs; ++i)
                        dot += q[i] * k[i];
                    p[t2] = dot * scale;
                    maxv = std::max(maxv, p[t2]);
                }
                double sum = 0.0;
                for (int t2 = 0; t2 < T; ++t2) {
                    a[t2] = t2 <= t ? std::exp(p[t2] - maxv) : 0.0;
                    if (t2 > t)
                        p[t2] = 0.0;
                    sum += a[t2];
                }
                for (int t2 = 0; t2 < T; ++t2)
                    a[t2] /= sum;
                double* o = out + (b * T + t) * C + h * hs;
                for (int i = 0; i < hs; ++i) {
                    double acc = 0.0;
                    for (int t2 = 0; t2 <= t; ++t2)
                        acc += a[t2] * qkv[(b * T + t2) * C3 + h * hs + 2 * C + i];
                    o[i] = acc;
                }
            }
}

// dqkv += ; att from attentionForward.
inline void attentionBackward(double* dqkv, const double* dout, const double* qkv,
                              const double* att, int B, int T, int C, int NH) {
    const int C3 = 3 * C, hs = C / NH;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
    std::vector<double> datt(T), dpreatt(T);
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < NH; ++h)
            for (int t = 0; t < T; ++t) {
                const double* a = att + ((b * NH + h) * T + t) * T;
                const double* d = dout + (b * T + t) * C + h * hs;
                const double* q = qkv + (b * T + t) * C3 + h * hs;
                double* dq = dqkv + (b * T + t) * C3 + h * hs;
                for (int t2 = 0; t2 <= t; ++t2) {
                    const std::size_t kv = (b * T + t2) * C3 + h * hs;
                    datt[t2] = 0.0;
                    for (int i = 0; i < hs; ++i) {
                        datt[t2] += qkv[kv + 2 * C + i] * d[i];
                        dqkv[kv + 2 * C + i] += a[t2] * d[i];
                    }
                }
                for (int t3 = 0; t3 <= t; ++t3) {
                    dpreatt[t3] = 0.0;
                    for (int t2 = 0; t2 <= t; ++t2)
                        dpreatt[t3] += a[t2] * ((t2 == t3 ? 1.0 : 0.0) - a[t3]) * datt[t2];
                }
                for (int t2 = 0; t2 <= t; ++t2) {
                    const std::size_t k = (b * T + t2) * C3 + h * hs + C;
                    for (int i = 0; i < hs; ++i) {
                        dq[i] += qkv[k + i] * dpreatt[t2] * scale;
                        dqkv[k + i] += q[i] * dpreatt[t2] * scale;
                    }
                }
            }
}

inline constexpr double kGeluScale = 0.79788456080286535588; // sqrt(2/pi)

inline void geluForward(double* out, const double* inp, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const double x = inp[i];
        out[i] = 0.5 * x * (1.0 + std::tanh(kGeluScale * (x + 0.044715 * x * x * x)));
    }
}

inline void geluBackward(double* dinp, const double* inp, const double* dout, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const double x = inp[i];
        const double u = kGeluScale * (x + 0.044715 * x * x * x);
        const double sech = 1.0 / std::cosh(u);
        const double grad = 0.5 * (1.0 + std::tanh(u)) +
                            0.5 * x * sech * sech * kGeluScale * (1.0 + 3.0 * 0.044715 * x * x);
        dinp[i] += grad * dout[i];
    }
}

inline void residualForward(double* out, const double* a, const double* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = a[i] + b[i];
}

inline void residualBackward(double* da, double* db, const double* dout, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        da[i] += dout[i];
        db[i] += dout[i];
    }
}

inline void softmaxCrossEntropyForward(double* losses, double* probs, const double* logits,
                                       const int* targets, int B, int T, int V, int Vp) {
    for (int r = 0; r < B * T; ++r) {
        const double* x = logits + r * Vp;
        double* p = probs + r * Vp;
        double maxv = x[0];
        for (int j = 1; j < V; ++j)
            maxv = std::max(maxv, x[j]);
        double sum = 0.0;
        for (int j = 0; j < V; ++j)
            sum += std::exp(x[j] - maxv);
        for (int j = 0; j < Vp; ++j)
            p[j] = j < V ? std::exp(x[j] - maxv) / sum : 0.0;
        losses[r] = -std::log(p[targets[r]]);
    }
}

inline void crossEntropySoftmaxBackward(double* dlogits, const double* dlosses, const double* probs,
                                        const int* targets, int B, int T, int V, int Vp) {
    for (int r = 0; r < B * T; ++r)
        for (int j = 0; j < V; ++j)
            dlogits[r * Vp + j] += (probs[r * Vp + j] - (j == targets[r] ? 1.0 : 0.0)) * dlosses[r];
}

} // namespace zerolab::ref
