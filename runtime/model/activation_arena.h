// Building a family's activation arena from untrusted sizes (a config, a command line):
// products and sums of floats with overflow checks, refused beyond kMaxActivationFloats,
// and a cursor handing out 64-byte aligned offsets. Shared by the families' layouts
// (e.g. llama/llama_activations.cpp) so that every arena is bounded the same way.
#pragma once

#include "runtime/model/activation_layout.h"

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace zerolab {

inline constexpr std::int64_t kArenaAlignFloats = 16; // 64 bytes

// Where one per-layer forward activation lives. Kept (per_layer): in each layer's block,
// at `offset` floats from the block's start. Recomputed: in one buffer shared by all
// layers, at `offset` floats from the arena's start, holding the current layer's values
// only: forward writes it and backward computes it again before use.
struct ArenaSlot {
    std::int64_t offset = 0;
    bool per_layer = true;
};

// Sizes in floats, each checked: an overflow or a value beyond kMaxActivationFloats throws
// std::invalid_argument with `what` (the shape and micro-batch, said by the caller).
class BoundedFloats {
public:
    explicit BoundedFloats(std::string what) : m_what(std::move(what)) {}

    std::int64_t product(std::initializer_list<std::int64_t> factors) const {
        std::int64_t n = 1;
        for (std::int64_t f : factors)
            if (__builtin_mul_overflow(n, f, &n) || n > kMaxActivationFloats)
                fail();
        return n;
    }
    std::int64_t sum(std::int64_t a, std::int64_t b) const {
        std::int64_t n = 0;
        if (__builtin_add_overflow(a, b, &n) || n > kMaxActivationFloats)
            fail();
        return n;
    }

private:
    [[noreturn]] void fail() const {
        throw std::invalid_argument("activation layout: " + m_what + " needs more than 2^" +
                                    std::to_string(kMaxActivationFloatsLog2) + " floats");
    }
    std::string m_what;
};

// Hands out aligned offsets one buffer after another; the arena stays within
// kMaxActivationFloats. The alignment padding is part of the arena's size.
class ArenaCursor {
public:
    explicit ArenaCursor(const BoundedFloats& bounded) : m_bounded(bounded) {}
    std::int64_t take(std::int64_t floats) {
        const std::int64_t at = m_next;
        const std::int64_t aligned =
            m_bounded.sum(floats, kArenaAlignFloats - 1) / kArenaAlignFloats * kArenaAlignFloats;
        m_next = m_bounded.sum(m_next, aligned);
        return at;
    }
    std::int64_t size() const { return m_next; }

private:
    const BoundedFloats& m_bounded;
    std::int64_t m_next = 0;
};

} // namespace zerolab
