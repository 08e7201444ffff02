// ZeRO++'s quantized payload format, in one place for the runtime (runtime/comm/quantize.h
// quantizes with it) and the planner (which counts its bytes): n values split into blocks
// of `block` elements (the last one may be shorter), each block stored as signed integers
// of `bits` bits with one fp32 scale, symmetric: scale = max|x| / (2^(bits-1) - 1),
// q = round(x / scale), so that each value comes back within scale / 2. The payload holds
// the scales first, then the integers (4 bits: two a byte, low nibble first).
#pragma once

#include <algorithm>
#include <cstdint>

namespace zerolab {

struct BlockFormat {
    int bits = 8;           // 8 (qwZ's weights) or 4 (qgZ's gradients)
    std::int64_t block = 1; // elements per block, >= 1
    std::int64_t blocks(std::int64_t n) const { return (n + block - 1) / block; }
    // Payload bytes of n values: one fp32 scale per block, then ceil(n * bits / 8) bytes.
    std::int64_t payloadBytes(std::int64_t n) const { return blocks(n) * 4 + (n * bits + 7) / 8; }
    // The largest integer magnitude: 127 (int8), 7 (int4).
    int qmax() const { return (1 << (bits - 1)) - 1; }
};

// qwZ's block for a shard of n values: DeepSpeed's CUDAQuantizer group rule (target 8000
// elements; the group count is raised until n divides into 8-element multiples of it,
// then doubled while the groups stay above the target). Where n is not a multiple of 8
// its rule finds none; zerolab then takes blocks of 8000 with a shorter last one.
inline std::int64_t qwzBlockElems(std::int64_t n) {
    constexpr std::int64_t kTarget = 8000;
    if (n <= 0)
        return 1;
    if (n % 8 != 0)
        return std::min(n, kTarget);
    std::int64_t groups = (n + kTarget - 1) / kTarget;
    while (groups < n && n % (8 * groups) != 0)
        ++groups;
    while (n % (8 * groups * 2) == 0 && n / groups > kTarget)
        groups *= 2;
    return n / groups;
}
inline BlockFormat qwzFormat(std::int64_t n) {
    return {8, qwzBlockElems(n)};
}
// qgZ's blocks: int4 in rows of n_embd elements. DeepSpeed's all_to_all_quant_reduce
// takes max(rows, cols, world) groups of each 2-D gradient, which for every [*, n_embd]
// matrix of GPT-2 is one group per n_embd elements.
inline BlockFormat qgzFormat(int n_embd) {
    return {4, std::max(1, n_embd)};
}

} // namespace zerolab
