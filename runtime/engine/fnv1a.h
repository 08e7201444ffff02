// FNV-1a 64, the checksum of every checkpoint file (meta.json included), and its
// 16-digit hex form as meta.json records it. Checkpoints of meta.json format 2 and 3 were
// hashed from a basis one digit short of the standard one (kFnv1aLegacyBasis).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace zerolab {

// The standard FNV-1a 64 offset basis: fnv1a("", 0) is cbf29ce484222325 as other tools say.
inline constexpr std::uint64_t kFnv1aBasis = 14695981039346656037ULL;
// The basis meta.json formats 2 and 3 were written with (a digit short); kept so that those
// checkpoints still verify.
inline constexpr std::uint64_t kFnv1aLegacyBasis = 1469598103934665603ULL;

// Continues the hash `h` over n bytes (start with kFnv1aBasis).
inline std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = kFnv1aBasis) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

inline std::string fnv1aHex(std::uint64_t v) {
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
    return s;
}

} // namespace zerolab
