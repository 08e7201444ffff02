// SwiGLU's element arithmetic (silu(gate) * up, LlamaMLP with hidden_act "silu"), shared
// by every Kernels implementation; each backend brings its own exp (the CPU a vectorisable
// approximation, CUDA expf). With e = exp(-g) and s = sigmoid(g) = 1 / (1 + e):
//   silu(g) = g s,   silu'(g) = s (1 + g (1 - s)),   1 - s = e s (no cancellation).
#pragma once

#include "kernels/host_device.h"

namespace zerolab::swiglu {

// -g is clamped to +-80: e stays finite and 1/(1+e) normal (no inf * 0 = NaN in e s, no
// slow denormals). Beyond it s is 1 to fp32 precision, or below 2e-35, where silu(g) is
// ~g * 1.8e-35 instead of g e^g: both are zero next to any other term of the layer.
inline constexpr float kNegGMax = 80.0f;

// The argument the backend exponentiates: e = exp(negG(g)).
ZEROLAB_HOST_DEVICE inline float negG(float g) {
    const float t = -g;
    return t > kNegGMax ? kNegGMax : (t < -kNegGMax ? -kNegGMax : t);
}

// silu(g) = g sigmoid(g).
ZEROLAB_HOST_DEVICE inline float silu(float g, float e) {
    return g * (1.0f / (1.0f + e));
}

// silu'(g) = s (1 + g (1 - s)).
ZEROLAB_HOST_DEVICE inline float siluDerivative(float g, float e) {
    const float s = 1.0f / (1.0f + e);
    return s * (1.0f + g * (e * s));
}

} // namespace zerolab::swiglu
