// Adam / AdamW steps: fp32 in place, and the mixed-precision variant that keeps
// an fp32 master and writes the bf16 working copy in the same pass.
#include "kernels/cpu/cpu_kernels.h"

#include <cmath>
#include <string>

namespace zerolab {

namespace {

// Per-step scalars shared by every element, the bias corrections computed in double.
struct AdamScalars {
    float beta1, beta2, oneMinusBeta1, oneMinusBeta2, lr, eps, gradScale;
    float invBias1, invBias2; // 1/(1-beta1^t), 1/(1-beta2^t)
    // Exactly one of the two is weightDecay, the other 0: the element loop stays
    // branch-free (and vectorised) for both Adam and AdamW.
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

// One element's update; returns the new parameter and updates m and v.
inline float adamElement(float p, float grad, float& m, float& v, const AdamScalars& s) {
    const float g = grad * s.gradScale + s.l2Decay * p;
    m = s.beta1 * m + s.oneMinusBeta1 * g;
    v = s.beta2 * v + s.oneMinusBeta2 * g * g;
    const float mhat = m * s.invBias1;
    const float vhat = v * s.invBias2;
    return p - s.lr * (mhat / (std::sqrt(vhat) + s.eps) + s.decoupledDecay * p);
}

} // namespace

void CpuKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                       const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        params[i] = adamElement(params[i], grads[i], m[i], v[i], s);
}

void CpuKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float p = adamElement(master[i], floatFromBf16(grads[i]), m[i], v[i], s);
        master[i] = p;
        paramsOut[i] = bf16FromFloat(p);
    }
}

void CpuKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float p = adamElement(master[i], grads[i], m[i], v[i], s);
        master[i] = p;
        paramsOut[i] = bf16FromFloat(p);
    }
}

} // namespace zerolab
