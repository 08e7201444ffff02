// Counter-based normal samples for the families' deterministic inits: each value is hashed
// from a stream key and its index, so any split of the flat buffer into units, slices or
// ranks reproduces the same model (network.h, initUnitParams).
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace zerolab {

inline std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Standard normals 2*pair and 2*pair+1 of the stream `key`: Box-Muller on two 32-bit
// uniforms in (0,1) taken from one 64-bit hash, its cosine and sine halves.
inline void normalPairAt(std::uint64_t key, std::uint64_t pair, double& even, double& odd) {
    const std::uint64_t h = splitMix64(key + splitMix64(pair));
    const double u1 = (static_cast<double>(h >> 32) + 0.5) * 0x1p-32;
    const double u2 = (static_cast<double>(h & 0xFFFFFFFFull) + 0.5) * 0x1p-32;
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * std::numbers::pi * u2;
    even = r * std::cos(a);
    odd = r * std::sin(a);
}

// The stream of tensor `tensor` of layer `layer` (0 outside the blocks) under `seed`.
inline std::uint64_t tensorStreamKey(std::uint64_t seed, int tensor, int layer) {
    return splitMix64(seed ^ splitMix64((static_cast<std::uint64_t>(tensor) << 32) |
                                        static_cast<std::uint32_t>(layer)));
}

// out[i] = std * N(0,1) sample i of the stream `key`, i < n.
inline void fillNormal(float* out, std::int64_t n, double std, std::uint64_t key) {
    for (std::int64_t i = 0; i < n; i += 2) {
        double even = 0.0, odd = 0.0;
        normalPairAt(key, static_cast<std::uint64_t>(i / 2), even, odd);
        out[i] = static_cast<float>(std * even);
        if (i + 1 < n)
            out[i + 1] = static_cast<float>(std * odd);
    }
}

} // namespace zerolab
