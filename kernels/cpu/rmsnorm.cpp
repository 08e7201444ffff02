// RMSNorm over the channel axis (LlamaRMSNorm: no bias, no mean subtraction), forward
// and backward.
#include "kernels/cpu/cpu_kernels.h"

#include <omp.h>

#include <cmath>
#include <sstream>
#include <vector>

namespace zerolab {

void CpuKernels::rmsnormForward(float* out, float* rstd, const float* inp, const float* weight,
                                int N, int C, float eps) {
    if (!(eps > 0.0f)) {
        std::ostringstream msg;
        msg << "rmsnormForward: eps must be > 0 (rms_norm_eps), got " << eps;
        throw KernelError(msg.str());
    }
    const std::size_t total = static_cast<std::size_t>(N) * C;
#pragma omp parallel for num_threads(loopThreads(total)) schedule(static)
    for (int n = 0; n < N; ++n) {
        const float* x = inp + static_cast<std::size_t>(n) * C;
        float* o = out + static_cast<std::size_t>(n) * C;
        float sq = 0.0f;
#pragma omp simd reduction(+ : sq)
        for (int c = 0; c < C; ++c)
            sq += x[c] * x[c];
        const float s = 1.0f / std::sqrt(sq / C + eps);
        // (x * rstd) * weight, HF's order: weight * hidden_states.
#pragma omp simd
        for (int c = 0; c < C; ++c)
            o[c] = (x[c] * s) * weight[c];
        rstd[n] = s;
    }
}

// Per row, with xhat = x * rstd and g = weight * dout:
//   dinp += rstd * (g - xhat * mean(g * xhat)); dweight += xhat * dout.
// dweight sums over rows: each thread sums its (static) rows into its own C partial, and
// the partials are added in thread order (the same bits on every run at a thread count).
void CpuKernels::rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                                 const float* weight, const float* rstd, int N, int C) {
    const std::size_t total = static_cast<std::size_t>(N) * C;
    const int threads = loopThreads(total);
    std::vector<float> partials(static_cast<std::size_t>(threads) * C, 0.0f);
#pragma omp parallel num_threads(threads)
    {
        float* pw = partials.data() + static_cast<std::size_t>(omp_get_thread_num()) * C;
#pragma omp for schedule(static)
        for (int n = 0; n < N; ++n) {
            const std::size_t off = static_cast<std::size_t>(n) * C;
            const float* x = inp + off;
            const float* d = dout + off;
            float* di = dinp + off;
            const float s = rstd[n];
            float gxMean = 0.0f;
#pragma omp simd reduction(+ : gxMean)
            for (int c = 0; c < C; ++c)
                gxMean += weight[c] * d[c] * (x[c] * s);
            gxMean /= C;
#pragma omp simd
            for (int c = 0; c < C; ++c) {
                const float xhat = x[c] * s;
                pw[c] += xhat * d[c];
                di[c] += s * (weight[c] * d[c] - xhat * gxMean);
            }
        }
    }
    for (int t = 0; t < threads; ++t) {
        const float* pw = partials.data() + static_cast<std::size_t>(t) * C;
        for (int c = 0; c < C; ++c)
            dweight[c] += pw[c];
    }
}

} // namespace zerolab
