// LayerNorm over the channel axis (eps 1e-5), forward and backward.
#include "kernels/cpu/cpu_kernels.h"

#include <omp.h>

#include <cmath>
#include <vector>

namespace zerolab {

namespace {
constexpr float kLayernormEps = 1e-5f;
} // namespace

void CpuKernels::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                  const float* weight, const float* bias, int N, int C) {
    const std::size_t total = static_cast<std::size_t>(N) * C;
#pragma omp parallel for num_threads(loopThreads(total)) schedule(static)
    for (int n = 0; n < N; ++n) {
        const float* x = inp + static_cast<std::size_t>(n) * C;
        float* o = out + static_cast<std::size_t>(n) * C;
        float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
        for (int c = 0; c < C; ++c)
            sum += x[c];
        const float m = sum / C;
        // Two passes (mean, then centred squares): no cancellation for large means.
        float sq = 0.0f;
#pragma omp simd reduction(+ : sq)
        for (int c = 0; c < C; ++c)
            sq += (x[c] - m) * (x[c] - m);
        const float s = 1.0f / std::sqrt(sq / C + kLayernormEps);
#pragma omp simd
        for (int c = 0; c < C; ++c)
            o[c] = (x[c] - m) * s * weight[c] + bias[c];
        mean[n] = m;
        rstd[n] = s;
    }
}

// Per row, with xhat = (x - mean) * rstd and g = weight * dout:
//   dinp += rstd * (g - mean(g) - xhat * mean(g * xhat)); dweight += xhat * dout; dbias += dout.
// dweight and dbias sum over rows: each thread sums its (static) rows into its own
// (2,C) partial, and the partials are added in thread order, so the result has the
// same bits on every run at a given thread count.
void CpuKernels::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                   const float* inp, const float* weight, const float* mean,
                                   const float* rstd, int N, int C) {
    const std::size_t total = static_cast<std::size_t>(N) * C;
    const int threads = loopThreads(total);
    std::vector<float> partials(2 * static_cast<std::size_t>(threads) * C, 0.0f);
#pragma omp parallel num_threads(threads)
    {
        float* pw = partials.data() + 2 * static_cast<std::size_t>(omp_get_thread_num()) * C;
        float* pb = pw + C;
#pragma omp for schedule(static)
        for (int n = 0; n < N; ++n) {
            const std::size_t off = static_cast<std::size_t>(n) * C;
            const float* x = inp + off;
            const float* d = dout + off;
            float* di = dinp + off;
            const float m = mean[n], s = rstd[n];
            float gMean = 0.0f, gxMean = 0.0f;
#pragma omp simd reduction(+ : gMean, gxMean)
            for (int c = 0; c < C; ++c) {
                const float g = weight[c] * d[c];
                gMean += g;
                gxMean += g * (x[c] - m) * s;
            }
            gMean /= C;
            gxMean /= C;
#pragma omp simd
            for (int c = 0; c < C; ++c) {
                const float xhat = (x[c] - m) * s;
                pw[c] += xhat * d[c];
                pb[c] += d[c];
                di[c] += s * (weight[c] * d[c] - gMean - xhat * gxMean);
            }
        }
    }
    for (int t = 0; t < threads; ++t) {
        const float* pw = partials.data() + 2 * static_cast<std::size_t>(t) * C;
        const float* pb = pw + C;
        for (int c = 0; c < C; ++c) {
            dweight[c] += pw[c];
            dbias[c] += pb[c];
        }
    }
}

} // namespace zerolab
