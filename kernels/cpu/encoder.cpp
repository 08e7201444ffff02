// Token + position embedding: forward gathers rows of wte and wpe, backward
// scatters the gradient back into them. Without wpe (nullptr: Llama, whose positions are
// RoPE's) the token rows alone.
#include "kernels/cpu/cpu_kernels.h"

#include <omp.h>

#include <algorithm>

namespace zerolab {

void CpuKernels::encoderForward(float* out, const int* inp, const float* wte, const float* wpe,
                                int B, int T, int C) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
#pragma omp parallel for num_threads(loopThreads(rows* C)) schedule(static)
    for (std::size_t bt = 0; bt < rows; ++bt) {
        const std::size_t t = bt % T;
        float* o = out + bt * C;
        const float* te = wte + static_cast<std::size_t>(inp[bt]) * C;
        if (!wpe) {
#pragma omp simd
            for (int c = 0; c < C; ++c)
                o[c] = te[c];
            continue;
        }
        const float* pe = wpe + t * C;
#pragma omp simd
        for (int c = 0; c < C; ++c)
            o[c] = te[c] + pe[c];
    }
}

// Several positions may hold the same token, so threads split the channels, not
// the positions: each thread owns a column range of dwte and dwpe and no two
// threads write the same element.
void CpuKernels::encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp, int B,
                                 int T, int C) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    const int threads = std::min(loopThreads(rows * C), std::max(1, C / 16));
#pragma omp parallel num_threads(threads)
    {
        const int tid = omp_get_thread_num(), nt = omp_get_num_threads();
        const int c0 = static_cast<int>(static_cast<long>(C) * tid / nt);
        const int c1 = static_cast<int>(static_cast<long>(C) * (tid + 1) / nt);
        for (std::size_t bt = 0; bt < rows; ++bt) {
            const std::size_t t = bt % T;
            const float* d = dout + bt * C;
            float* te = dwte + static_cast<std::size_t>(inp[bt]) * C;
            if (!dwpe) {
#pragma omp simd
                for (int c = c0; c < c1; ++c)
                    te[c] += d[c];
                continue;
            }
            float* pe = dwpe + t * C;
#pragma omp simd
            for (int c = c0; c < c1; ++c) {
                te[c] += d[c];
                pe[c] += d[c];
            }
        }
    }
}

} // namespace zerolab
