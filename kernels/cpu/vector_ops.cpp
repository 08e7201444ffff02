// Element-wise utilities: bf16 conversions and accumulation, axpy, scale, zero and
// the sum of squares used by global-norm clipping. All are single passes over memory.
#include "kernels/cpu/cpu_kernels.h"

#include <algorithm>
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

void CpuKernels::accumulate(Bf16* dst, const Bf16* src, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        dst[i] = bf16FromFloat(floatFromBf16(dst[i]) + floatFromBf16(src[i]));
}

void CpuKernels::accumulate(Bf16* dst, const float* src, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        dst[i] = bf16FromFloat(floatFromBf16(dst[i]) + src[i]);
}

// Element i's bf16 goes to bytes [2i, 2i+2), inside float i/2. The first kHead elements
// run in order (each write lands on a float already read); after that, once [0, m) is
// done, the elements [m, 2m) write floats [m/2, m), all read already, and read floats
// [m, 2m), which nobody writes in that round: each doubling round is a parallel loop.
void CpuKernels::narrowToBf16InPlace(float* buf, std::size_t n) {
    constexpr std::size_t kHead = 4096;
    auto* out = reinterpret_cast<Bf16*>(buf);
    const std::size_t head = std::min(n, kHead);
    auto* bytes = reinterpret_cast<unsigned char*>(buf);
    for (std::size_t i = 0; i < head; ++i) { // byte copies: the two views alias here
        float x;
        std::memcpy(&x, bytes + 4 * i, sizeof x);
        const Bf16 b = bf16FromFloat(x);
        std::memcpy(bytes + 2 * i, &b, sizeof b);
    }
    for (std::size_t m = head; m < n; m *= 2) {
        const std::size_t end = std::min(n, 2 * m);
#pragma omp parallel for num_threads(loopThreads(end - m)) schedule(static)
        for (std::size_t i = m; i < end; ++i)
            out[i] = bf16FromFloat(buf[i]);
    }
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
