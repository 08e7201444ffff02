// The Linear layer out = inp * weight^T + bias, forward and backward, as
// OpenBLAS sgemm calls (row-major) plus a vectorised bias pass.
#include "kernels/cpu/cpu_kernels.h"

#include <cblas.h>
#include <omp.h>

#include <vector>

namespace zerolab {

// out(N,OC) is first filled with the bias rows so that sgemm can add into it
// (beta = 1): one pass over out instead of a separate bias pass after the product.
void CpuKernels::matmulForward(float* out, const float* inp, const float* weight, const float* bias,
                               int N, int C, int OC) {
    float beta = 0.0f;
    if (bias != nullptr) {
        const std::size_t total = static_cast<std::size_t>(N) * OC;
#pragma omp parallel for num_threads(loopThreads(total)) schedule(static)
        for (int n = 0; n < N; ++n) {
            float* o = out + static_cast<std::size_t>(n) * OC;
#pragma omp simd
            for (int j = 0; j < OC; ++j)
                o[j] = bias[j];
        }
        beta = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, OC, C, 1.0f, inp, C, weight, C, beta,
                out, OC);
}

void CpuKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                const float* inp, const float* weight, int N, int C, int OC) {
    if (dinp != nullptr) // dinp(N,C) += dout(N,OC) * weight(OC,C)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, C, OC, 1.0f, dout, OC, weight, C,
                    1.0f, dinp, C);
    // dweight(OC,C) += dout^T(OC,N) * inp(N,C)
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, OC, C, N, 1.0f, dout, OC, inp, C, 1.0f,
                dweight, C);
    if (dbias == nullptr)
        return;
    // Column sums of dout, row by row so that the inner loop is contiguous; threads
    // sum disjoint (static) row ranges into their own partial row, and the partials are
    // added in thread order: the same bits on every run at a given thread count.
    const std::size_t total = static_cast<std::size_t>(N) * OC;
    const int threads = loopThreads(total);
    std::vector<float> partials(static_cast<std::size_t>(threads) * OC, 0.0f);
#pragma omp parallel num_threads(threads)
    {
        float* p = partials.data() + static_cast<std::size_t>(omp_get_thread_num()) * OC;
#pragma omp for schedule(static)
        for (int n = 0; n < N; ++n) {
            const float* d = dout + static_cast<std::size_t>(n) * OC;
#pragma omp simd
            for (int j = 0; j < OC; ++j)
                p[j] += d[j];
        }
    }
    for (int t = 0; t < threads; ++t) {
        const float* p = partials.data() + static_cast<std::size_t>(t) * OC;
        for (int j = 0; j < OC; ++j)
            dbias[j] += p[j];
    }
}

} // namespace zerolab
