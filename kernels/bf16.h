// bfloat16 storage type and its scalar conversions. Bf16 is only a storage
// format: every kernel computes in fp32 and rounds once when it stores.
#pragma once

#include <bit>
#include <cstdint>

namespace zerolab {

// The upper 16 bits of an IEEE-754 binary32: 1 sign, 8 exponent, 7 mantissa bits.
struct Bf16 {
    std::uint16_t bits;
};

// fp32 -> bf16, round to nearest, ties to even. Overflow rounds to +-inf as IEEE
// rounding does; NaN stays NaN (forced quiet so that truncation cannot make it inf).
inline Bf16 bf16FromFloat(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return Bf16{static_cast<std::uint16_t>((u >> 16) | 0x0040u)};
    const std::uint32_t roundingBias = 0x7fffu + ((u >> 16) & 1u);
    return Bf16{static_cast<std::uint16_t>((u + roundingBias) >> 16)};
}

// bf16 -> fp32 is exact.
inline float floatFromBf16(Bf16 b) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(b.bits) << 16);
}

} // namespace zerolab
