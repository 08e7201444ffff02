// Symmetric block quantization (quantize.h): scales, then integers packed low nibble
// first for 4 bits. The loops are written to auto-vectorise (comm/CMakeLists.txt compiles
// this file at -O3): each block goes through a chunk of int8 values on the stack, so that
// no loop branches on the bit width or on an element's nibble, and the rounding is a
// float add-and-subtract; results are bit for bit those of the scalar definition
// (round to nearest even, NaN as 0; tests/comm/test_zeropp_comm.cpp).
#include "runtime/comm/quantize.h"

#include "kernels/cpu/dispatch.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

// Values per pass through the stack chunk (even: 4-bit pairs never straddle two chunks
// that start on an even element).
constexpr std::int64_t kChunk = 2048;

void checkFormat(const BlockFormat& f) {
    if ((f.bits != 8 && f.bits != 4) || f.block < 1)
        throw std::invalid_argument("block quantization: " + std::to_string(f.bits) +
                                    " bits in blocks of " + std::to_string(f.block) +
                                    " (8 or 4 bits, blocks >= 1)");
}

float asFloat(float v) {
    return v;
}
float asFloat(Bf16 v) {
    return floatFromBf16(v);
}

// max |x[i]| over [0, n), NaN ignored: on the bit patterns, where non-negative floats
// order as integers (an integer max reduction vectorises; a float one needs fast-math).
template <typename In> inline float absMaxLoop(const In* x, std::int64_t n) {
    std::uint32_t m = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        // NaN to 0 by a mask: written as a select, GCC leaves the loop scalar.
        std::uint32_t u = std::bit_cast<std::uint32_t>(asFloat(x[i])) & 0x7fffffffu;
        u &= 0u - static_cast<std::uint32_t>(u <= 0x7f800000u);
        m = std::max(m, u);
    }
    return std::bit_cast<float>(m);
}

// q[i] = round(x[i] * inv) clamped to [-qmax, qmax], ties to even, NaN as 0. Adding and
// subtracting 1.5 * 2^23 rounds a float of magnitude below 2^22 to an integer in the
// default rounding mode, as nearbyint does.
template <typename In>
inline void toIntsLoop(const In* x, std::int64_t n, float inv, float qmax, std::int8_t* q) {
    constexpr float kRound = 12582912.0f;
    for (std::int64_t i = 0; i < n; ++i) {
        float t = asFloat(x[i]) * inv;
        t = t == t ? t : 0.0f;
        t = t < -qmax ? -qmax : t;
        t = t > qmax ? qmax : t;
        q[i] = static_cast<std::int8_t>(static_cast<int>((t + kRound) - kRound));
    }
}

// Stores n integers of the chunk that starts at element `at` of the payload's integers.
void pack(const std::int8_t* c, std::int64_t n, std::int64_t at, int bits, std::uint8_t* q) {
    if (bits == 8) {
        std::memcpy(q + at, c, static_cast<std::size_t>(n));
        return;
    }
    std::int64_t k = 0;
    if (at % 2 != 0) { // the high nibble of a byte whose low one the previous chunk wrote
        q[at / 2] |= static_cast<std::uint8_t>((c[0] & 0xF) << 4);
        k = 1;
    }
    std::uint8_t* out = q + (at + k) / 2;
    const std::int64_t pairs = (n - k) / 2;
    for (std::int64_t p = 0; p < pairs; ++p)
        out[p] = static_cast<std::uint8_t>((c[k + 2 * p] & 0xF) | ((c[k + 2 * p + 1] & 0xF) << 4));
    if ((n - k) % 2 != 0)
        out[pairs] = static_cast<std::uint8_t>(c[n - 1] & 0xF);
}

// The n integers that start at element `at` of the payload's integers, sign-extended.
void unpack(const std::uint8_t* q, std::int64_t n, std::int64_t at, int bits, std::int8_t* c) {
    if (bits == 8) {
        std::memcpy(c, q + at, static_cast<std::size_t>(n));
        return;
    }
    std::int64_t k = 0;
    if (at % 2 != 0) {
        c[0] = static_cast<std::int8_t>(static_cast<std::int8_t>(q[at / 2]) >> 4);
        k = 1;
    }
    const std::uint8_t* in = q + (at + k) / 2;
    const std::int64_t pairs = (n - k) / 2;
    for (std::int64_t p = 0; p < pairs; ++p) {
        const auto b = static_cast<std::int8_t>(in[p]);
        c[k + 2 * p] = static_cast<std::int8_t>(static_cast<std::int8_t>(b << 4) >> 4);
        c[k + 2 * p + 1] = static_cast<std::int8_t>(b >> 4);
    }
    if ((n - k) % 2 != 0)
        c[n - 1] = static_cast<std::int8_t>(static_cast<std::int8_t>(in[pairs] << 4) >> 4);
}

template <bool kAdd, typename Out>
inline void scaleOutLoop(const std::int8_t* c, std::int64_t n, float scale, Out* out) {
    for (std::int64_t i = 0; i < n; ++i) {
        const float v = static_cast<float>(c[i]) * scale;
        if constexpr (kAdd)
            out[i] += v;
        else if constexpr (sizeof(Out) == 2)
            out[i] = bf16FromFloat(v);
        else
            out[i] = v;
    }
}

// The loops above as functions compiled twice (kernels/cpu/dispatch.h): AVX2 where the CPU
// has it (the integer max of absMax needs SSE4.1 to vectorise at all).
ZEROLAB_CPU_CLONES float absMax(const float* x, std::int64_t n) {
    return absMaxLoop(x, n);
}
ZEROLAB_CPU_CLONES float absMax(const Bf16* x, std::int64_t n) {
    return absMaxLoop(x, n);
}
ZEROLAB_CPU_CLONES void toInts(const float* x, std::int64_t n, float inv, float qmax,
                               std::int8_t* q) {
    toIntsLoop(x, n, inv, qmax, q);
}
ZEROLAB_CPU_CLONES void toInts(const Bf16* x, std::int64_t n, float inv, float qmax,
                               std::int8_t* q) {
    toIntsLoop(x, n, inv, qmax, q);
}
ZEROLAB_CPU_CLONES void scaleOut(const std::int8_t* c, std::int64_t n, float scale, float* out) {
    scaleOutLoop<false>(c, n, scale, out);
}
ZEROLAB_CPU_CLONES void scaleOut(const std::int8_t* c, std::int64_t n, float scale, Bf16* out) {
    scaleOutLoop<false>(c, n, scale, out);
}
ZEROLAB_CPU_CLONES void scaleAdd(const std::int8_t* c, std::int64_t n, float scale, float* out) {
    scaleOutLoop<true>(c, n, scale, out);
}

// Calls f(begin, count) for each stack chunk of [begin, end).
template <typename F> void chunks(std::int64_t begin, std::int64_t end, F&& f) {
    for (std::int64_t i = begin; i < end; i += kChunk)
        f(i, std::min(kChunk, end - i));
}

// kAdd: out += value; else out = value (bf16 out: rounded).
template <bool kAdd, typename Out>
void dequantize(const std::uint8_t* payload, std::int64_t n, const BlockFormat& f, Out* out) {
    checkFormat(f);
    const std::int64_t nb = f.blocks(n);
    const std::uint8_t* q = payload + nb * 4;
    std::int8_t c[kChunk];
    for (std::int64_t b = 0; b < nb; ++b) {
        float scale = 0;
        std::memcpy(&scale, payload + b * 4, 4);
        chunks(b * f.block, std::min(n, (b + 1) * f.block), [&](std::int64_t i, std::int64_t m) {
            unpack(q, m, i, f.bits, c);
            if constexpr (kAdd)
                scaleAdd(c, m, scale, out + i);
            else
                scaleOut(c, m, scale, out + i);
        });
    }
}

template <typename In>
void quantize(const In* x, std::int64_t n, const BlockFormat& f, std::uint8_t* payload) {
    checkFormat(f);
    const std::int64_t nb = f.blocks(n);
    std::uint8_t* q = payload + nb * 4;
    const float qmax = static_cast<float>(f.qmax());
    std::int8_t c[kChunk];
    for (std::int64_t b = 0; b < nb; ++b) {
        const std::int64_t begin = b * f.block;
        const std::int64_t end = std::min(n, begin + f.block);
        const float scale = absMax(x + begin, end - begin) / qmax;
        std::memcpy(payload + b * 4, &scale, 4);
        const float inv = scale > 0 ? 1.0f / scale : 0.0f;
        chunks(begin, end, [&](std::int64_t i, std::int64_t m) {
            toInts(x + i, m, inv, qmax, c);
            pack(c, m, i, f.bits, q);
        });
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
