// Symmetric block quantization (quantize.h): scales, then integers packed low nibble
// first for 4 bits.
#include "runtime/comm/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

void checkFormat(const BlockFormat& f) {
    if ((f.bits != 8 && f.bits != 4) || f.block < 1)
        throw std::invalid_argument("block quantization: " + std::to_string(f.bits) +
                                    " bits in blocks of " + std::to_string(f.block) +
                                    " (8 or 4 bits, blocks >= 1)");
}

int quantizedAt(const std::uint8_t* q, std::int64_t i, int bits) {
    if (bits == 8)
        return static_cast<std::int8_t>(q[i]);
    const int nibble = (q[i / 2] >> ((i % 2) * 4)) & 0xF;
    return nibble >= 8 ? nibble - 16 : nibble;
}

float asFloat(float v) {
    return v;
}
float asFloat(Bf16 v) {
    return floatFromBf16(v);
}

// kAdd: out += value; else out = value (bf16 out: rounded).
template <bool kAdd, typename Out>
void dequantize(const std::uint8_t* payload, std::int64_t n, const BlockFormat& f, Out* out) {
    checkFormat(f);
    const std::int64_t nb = f.blocks(n);
    const std::uint8_t* q = payload + nb * 4;
    for (std::int64_t b = 0; b < nb; ++b) {
        float scale = 0;
        std::memcpy(&scale, payload + b * 4, 4);
        const std::int64_t end = std::min(n, (b + 1) * f.block);
        for (std::int64_t i = b * f.block; i < end; ++i) {
            const float v = static_cast<float>(quantizedAt(q, i, f.bits)) * scale;
            if constexpr (kAdd)
                out[i] += v;
            else if constexpr (sizeof(Out) == 2)
                out[i] = bf16FromFloat(v);
            else
                out[i] = v;
        }
    }
}

template <typename In>
void quantize(const In* x, std::int64_t n, const BlockFormat& f, std::uint8_t* payload) {
    checkFormat(f);
    const std::int64_t nb = f.blocks(n);
    std::uint8_t* q = payload + nb * 4;
    if (f.bits == 4)
        std::memset(q, 0, static_cast<std::size_t>((n + 1) / 2));
    const float qmax = static_cast<float>(f.qmax());
    for (std::int64_t b = 0; b < nb; ++b) {
        const std::int64_t begin = b * f.block;
        const std::int64_t end = std::min(n, begin + f.block);
        float amax = 0;
        for (std::int64_t i = begin; i < end; ++i)
            amax = std::max(amax, std::fabs(asFloat(x[i])));
        const float scale = amax / qmax;
        std::memcpy(payload + b * 4, &scale, 4);
        const float inv = scale > 0 ? 1.0f / scale : 0.0f;
        for (std::int64_t i = begin; i < end; ++i) {
            const int v =
                static_cast<int>(std::clamp(std::nearbyint(asFloat(x[i]) * inv), -qmax, qmax));
            if (f.bits == 8)
                q[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
            else
                q[i / 2] |= static_cast<std::uint8_t>((v & 0xF) << ((i % 2) * 4));
        }
    }
}

} // namespace

void quantizeBlocks(const float* x, std::int64_t n, const BlockFormat& f, std::uint8_t* payload) {
    quantize(x, n, f, payload);
}

void quantizeBlocks(const Bf16* x, std::int64_t n, const BlockFormat& f, std::uint8_t* payload) {
    quantize(x, n, f, payload);
}

void dequantizeBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& f,
                      Bf16* out) {
    dequantize<false>(payload, n, f, out);
}

void dequantizeBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& f,
                      float* out) {
    dequantize<false>(payload, n, f, out);
}

void dequantizeAddBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& f,
                         float* out) {
    dequantize<true>(payload, n, f, out);
}

} // namespace zerolab
