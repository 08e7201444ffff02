// Fused Adam / AdamW over a shard: one pass reads grad, m, v and the (master)
// parameter and writes them back; the mixed variant also writes the bf16 copy.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

#include <cmath>
#include <string>

namespace zerolab {

namespace {

// Per-step scalars, the bias corrections computed on the host in double (as the CPU
// kernels do). Exactly one of l2Decay / decoupledDecay is non-zero.
struct AdamScalars {
    float beta1, beta2, oneMinusBeta1, oneMinusBeta2, lr, eps, gradScale;
    float invBias1, invBias2;
    float l2Decay, decoupledDecay;
};

AdamScalars adamScalars(const AdamParams& hp) {
    if (hp.step < 1)
        throw KernelError("adamw: step t must be >= 1 (bias correction), got " +
                          std::to_string(hp.step));
    const double b1t = std::pow(static_cast<double>(hp.beta1), hp.step);
    const double b2t = std::pow(static_cast<double>(hp.beta2), hp.step);
    return {hp.beta1,
            hp.beta2,
            1.0f - hp.beta1,
            1.0f - hp.beta2,
            hp.lr,
            hp.eps,
            hp.gradScale,
            static_cast<float>(1.0 / (1.0 - b1t)),
            static_cast<float>(1.0 / (1.0 - b2t)),
            hp.decoupled ? 0.0f : hp.weightDecay,
            hp.decoupled ? hp.weightDecay : 0.0f};
}

__device__ inline float adamElement(float p, float grad, float& m, float& v, const AdamScalars& s) {
    const float g = grad * s.gradScale + s.l2Decay * p;
    m = s.beta1 * m + s.oneMinusBeta1 * g;
    v = s.beta2 * v + s.oneMinusBeta2 * g * g;
    const float mhat = m * s.invBias1;
    const float vhat = v * s.invBias2;
    return p - s.lr * (mhat / (sqrtf(vhat) + s.eps) + s.decoupledDecay * p);
}

__global__ void adamKernel(float* params, const float* grads, float* m, float* v, std::size_t n,
                           AdamScalars s) {
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride()) {
        float mi = m[i], vi = v[i];
        params[i] = adamElement(params[i], grads[i], mi, vi, s);
        m[i] = mi;
        v[i] = vi;
    }
}

template <typename G>
__global__ void adamMixedKernel(float* master, Bf16* paramsOut, const G* grads, float* m, float* v,
                                std::size_t n, AdamScalars s) {
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride()) {
        float mi = m[i], vi = v[i];
        const float p = adamElement(master[i], cuda::loadFloat(grads, i), mi, vi, s);
        master[i] = p;
        paramsOut[i] = cuda::toBf16Device(p);
        m[i] = mi;
        v[i] = vi;
    }
}

} // namespace

void CudaKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                        const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(params, grads, m, v, n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamKernel");
}

void CudaKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                             std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamMixedKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(master, paramsOut, grads, m, v,
                                                                     n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamMixedKernel<bf16>");
}

void CudaKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                             std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamMixedKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(master, paramsOut, grads, m, v,
                                                                     n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamMixedKernel<fp32>");
}

} // namespace zerolab
