// The rotary embedding's pair rotation in HF's rotate_half convention, shared by every
// Kernels implementation: element i of a head pairs with element i + hs/2 (not 2i with
// 2i+1, as in the original RoFormer/Meta layout), and rotate_half(x) = cat(-x2, x1), so
//   q_embed = q cos + rotate_half(q) sin.
#pragma once

#include "kernels/host_device.h"

namespace zerolab::rope {

// (a, b) = (x[i], x[i + hs/2]) rotated by the angle whose cos and sin are c and s.
ZEROLAB_HOST_DEVICE inline void rotate(float& a, float& b, float c, float s) {
    const float x1 = a, x2 = b;
    a = x1 * c - x2 * s;
    b = x2 * c + x1 * s;
}

// The inverse (transposed) rotation: the backward of rotate on (da, db).
ZEROLAB_HOST_DEVICE inline void unrotate(float& a, float& b, float c, float s) {
    const float y1 = a, y2 = b;
    a = y1 * c + y2 * s;
    b = y2 * c - y1 * s;
}

} // namespace zerolab::rope
