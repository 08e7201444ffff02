// GELU (tanh approximation, kernels/gelu_math.h) and the residual add, forward and
// backward.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/fast_math.h"
#include "kernels/gelu_math.h"

namespace zerolab {

namespace {

ZEROLAB_CPU_CLONES void geluForwardRange(float* out, const float* inp, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        out[i] = gelu::value(x, cpu::expApprox(gelu::twoU(x)));
    }
}

ZEROLAB_CPU_CLONES void geluBackwardRange(float* dinp, const float* inp, const float* dout,
                                          std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        dinp[i] += gelu::derivative(x, cpu::expApprox(gelu::twoU(x))) * dout[i];
    }
}

} // namespace

void CpuKernels::geluForward(float* out, const float* inp, std::size_t n) {
#pragma omp parallel num_threads(loopThreads(n))
    {
        const auto [begin, end] = cpu::threadRange(n);
        geluForwardRange(out + begin, inp + begin, end - begin);
    }
}

void CpuKernels::geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) {
#pragma omp parallel num_threads(loopThreads(n))
    {
        const auto [begin, end] = cpu::threadRange(n);
        geluBackwardRange(dinp + begin, inp + begin, dout + begin, end - begin);
    }
}

void CpuKernels::residualForward(float* out, const float* a, const float* b, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        out[i] = a[i] + b[i];
}

void CpuKernels::residualBackward(float* da, float* db, const float* dout, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        da[i] += dout[i];
        db[i] += dout[i];
    }
}

} // namespace zerolab
