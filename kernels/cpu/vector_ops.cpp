// Element-wise utilities: bf16 conversions, axpy, scale, zero and the sum of
// squares used by global-norm clipping. All are single passes over memory.
#include "kernels/cpu/cpu_kernels.h"

#include <cstring>

namespace zerolab {

void CpuKernels::toBf16(Bf16* out, const float* in, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        out[i] = bf16FromFloat(in[i]);
}

void CpuKernels::toFloat(float* out, const Bf16* in, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        out[i] = floatFromBf16(in[i]);
}

void CpuKernels::axpy(float* y, float alpha, const float* x, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        y[i] += alpha * x[i];
}

void CpuKernels::scale(float* x, float s, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        x[i] *= s;
}

void CpuKernels::zero(float* x, std::size_t n) {
    std::memset(x, 0, n * sizeof(float));
}

void CpuKernels::zero(Bf16* x, std::size_t n) {
    std::memset(x, 0, n * sizeof(Bf16));
}

double CpuKernels::sumSquares(const float* x, std::size_t n) {
    double acc = 0.0;
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static) reduction(+ : acc)
    for (std::size_t i = 0; i < n; ++i) {
        const double xi = x[i];
        acc += xi * xi;
    }
    return acc;
}

double CpuKernels::sumSquares(const Bf16* x, std::size_t n) {
    double acc = 0.0;
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static) reduction(+ : acc)
    for (std::size_t i = 0; i < n; ++i) {
        const double xi = floatFromBf16(x[i]);
        acc += xi * xi;
    }
    return acc;
}

} // namespace zerolab
