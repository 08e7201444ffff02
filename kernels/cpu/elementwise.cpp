// GELU (tanh approximation) and the residual add, forward and backward.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/fast_math.h"

namespace zerolab {

namespace {
constexpr float kGeluScale = 0.7978845608028654f; // sqrt(2/pi)
constexpr float kGeluCubic = 0.044715f;
} // namespace

void CpuKernels::geluForward(float* out, const float* inp, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        const float u = kGeluScale * (x + kGeluCubic * x * x * x);
        out[i] = 0.5f * x * (1.0f + cpu::tanhApprox(u));
    }
}

// d/dx [0.5 x (1 + tanh u)] = 0.5 (1 + tanh u) + 0.5 x sech^2(u) du/dx, sech^2 = 1 - tanh^2.
void CpuKernels::geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) {
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        const float u = kGeluScale * (x + kGeluCubic * x * x * x);
        const float th = cpu::tanhApprox(u);
        const float dudx = kGeluScale * (1.0f + 3.0f * kGeluCubic * x * x);
        const float grad = 0.5f * (1.0f + th) + 0.5f * x * (1.0f - th * th) * dudx;
        dinp[i] += grad * dout[i];
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
