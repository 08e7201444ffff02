// A branch-free exp for the kernels' inner loops (softmax, GELU). It inlines into
// loops that the compiler vectorises (libm's expf would not, without -ffast-math),
// at about 2 ulp accuracy.
#pragma once

#include <bit>
#include <cstdint>

namespace zerolab::cpu {

// exp(x) for x in float range. Inputs below -87.3 return ~2^-126 instead of a
// denormal or 0 (harmless next to softmax's max term, which is 1), inputs above
// 88.3 saturate at ~2^127.
inline float expApprox(float x) {
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2Hi = 0.693145751953125f;
    constexpr float kLn2Lo = 1.42860682030941723212e-6f;
    constexpr float kRound = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
    x = x < -87.3f ? -87.3f : x;
    x = x > 88.3f ? 88.3f : x;
    const float kf = (x * kLog2e + kRound) - kRound;
    const float r = (x - kf * kLn2Hi) - kf * kLn2Lo; // |r| <= ln2/2
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const std::int32_t k = static_cast<std::int32_t>(kf);
    return p * std::bit_cast<float>((k + 127) << 23);
}

} // namespace zerolab::cpu
