// The tanh-approximation GELU's element arithmetic, shared by every Kernels
// implementation; each backend brings its own exp (the CPU a vectorisable
// approximation, CUDA expf). With u = sqrt(2/pi) (x + 0.044715 x^3) and e = exp(2u):
// 0.5 (1 + tanh u) = e / (1 + e) = s and 1 - s = 1 / (1 + e), both accurate to a few
// ulps in relative terms (1 - tanh^2 would cancel for large |u|).
#pragma once

#include "kernels/host_device.h"

namespace zerolab::gelu {

inline constexpr float kScale = 0.7978845608028654f; // sqrt(2/pi)
inline constexpr float kCubic = 0.044715f;
// 2u is clamped to +-80, where s is already 1 or ~1e-35 in fp32: keeps e, 1/(1+e) and
// x*s finite and normal (no inf, no slow denormals).
inline constexpr float kTwoUMax = 80.0f;

// 2u for x, clamped; the backend computes e = exp(twoU(x)).
ZEROLAB_HOST_DEVICE inline float twoU(float x) {
    const float t = 2.0f * kScale * (x + kCubic * x * x * x);
    return t > kTwoUMax ? kTwoUMax : (t < -kTwoUMax ? -kTwoUMax : t);
}

// gelu(x) = x s.
ZEROLAB_HOST_DEVICE inline float value(float x, float e) {
    return x * (e / (1.0f + e));
}

// gelu'(x) = d/dx [0.5 x (1 + tanh u)] = s + 2 x s (1 - s) du/dx.
ZEROLAB_HOST_DEVICE inline float derivative(float x, float e) {
    const float inv = 1.0f / (1.0f + e);
    const float s = e * inv;
    const float dudx = kScale * (1.0f + 3.0f * kCubic * x * x);
    return s + 2.0f * x * s * inv * dudx;
}

} // namespace zerolab::gelu
