// GELU (tanh approximation) and the residual add, forward and backward.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/fast_math.h"

namespace zerolab {

namespace {

constexpr float kGeluScale = 0.7978845608028654f; // sqrt(2/pi)
constexpr float kGeluCubic = 0.044715f;
// 2u is clamped to +-80, where s = e/(1+e) is already 1 or ~1e-35 in fp32: keeps e, 1/(1+e)
// and x*s finite and normal (no inf, no slow denormals).
constexpr float kTwoUMax = 80.0f;

inline float geluExp(float x) {
    float twoU = 2.0f * kGeluScale * (x + kGeluCubic * x * x * x);
    twoU = twoU > kTwoUMax ? kTwoUMax : twoU;
    twoU = twoU < -kTwoUMax ? -kTwoUMax : twoU;
    return cpu::expApprox(twoU);
}

// With e = exp(2u): 0.5 (1 + tanh u) = e / (1 + e) = s and 1 - s = 1 / (1 + e), both
// accurate to a few ulps in relative terms (1 - tanh^2 would cancel for large |u|).
ZEROLAB_CPU_CLONES void geluForwardRange(float* out, const float* inp, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        const float e = geluExp(x);
        out[i] = x * (e / (1.0f + e));
    }
}

// d/dx [0.5 x (1 + tanh u)] = 0.5 (1 + tanh u) + 0.5 x sech^2(u) du/dx = s + 2 x s (1 - s) du/dx.
ZEROLAB_CPU_CLONES void geluBackwardRange(float* dinp, const float* inp, const float* dout,
                                          std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float x = inp[i];
        const float e = geluExp(x);
        const float inv = 1.0f / (1.0f + e);
        const float s = e * inv;
        const float dudx = kGeluScale * (1.0f + 3.0f * kGeluCubic * x * x);
        dinp[i] += (s + 2.0f * x * s * inv * dudx) * dout[i];
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
