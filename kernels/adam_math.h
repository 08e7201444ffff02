// The Adam / AdamW arithmetic shared by every Kernels implementation: the per-step
// scalars (bias corrections in double, on the host) and the one-element update, which
// compiles for the CPU and, under nvcc, for the device too.
#pragma once

#include "kernels/host_device.h"
#include "kernels/kernels.h"

#include <cmath>
#include <string>

namespace zerolab {

// Per-step scalars shared by every element. Exactly one of l2Decay / decoupledDecay is
// weightDecay, the other 0: the element update stays branch-free (and vectorised) for
// both Adam and AdamW.
struct AdamScalars {
    float beta1, beta2, oneMinusBeta1, oneMinusBeta2, lr, eps, gradScale;
    float invBias1, invBias2; // 1/(1-beta1^t), 1/(1-beta2^t)
    float l2Decay, decoupledDecay;
};

// Throws KernelError for t < 1 (the bias correction divides by 1 - beta^t).
inline AdamScalars adamScalars(const AdamParams& hp) {
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

// One element's update: returns the new parameter and updates m and v.
ZEROLAB_HOST_DEVICE inline float adamElement(float p, float grad, float& m, float& v,
                                             const AdamScalars& s) {
    const float g = grad * s.gradScale + s.l2Decay * p;
    m = s.beta1 * m + s.oneMinusBeta1 * g;
    v = s.beta2 * v + s.oneMinusBeta2 * g * g;
    const float mhat = m * s.invBias1;
    const float vhat = v * s.invBias2;
#if defined(__CUDA_ARCH__)
    const float root = sqrtf(vhat);
#else
    const float root = std::sqrt(vhat);
#endif
    return p - s.lr * (mhat / (root + s.eps) + s.decoupledDecay * p);
}

} // namespace zerolab
