// The optimizer shard files of a checkpoint (optim-rank<r>.bin): a 64-byte header, then
// m, v (and the bf16 master), each the rank's owned slices back to back. The header is
// read from an untrusted file: its element count sizes every later seek, so it is
// checked against what meta.json expects and against the file's length first.
#pragma once

#include "runtime/engine/checkpoint_meta.h"

#include <cstdint>
#include <istream>
#include <string>

namespace zerolab {

inline constexpr std::uint32_t kOptimMagic = 0x5A4F5054; // "ZOPT"
inline constexpr std::uint32_t kOptimVersion = 1;

struct OptimHeader {
    std::uint32_t magic = kOptimMagic;
    std::uint32_t version = kOptimVersion;
    std::int32_t rank = 0;
    std::int32_t world = 1;
    std::int32_t stage = 0;
    std::int32_t arrays = 2; // m, v [, master]
    std::int64_t elems = 0;  // per array
    std::uint8_t reserved[32] = {};
};
static_assert(sizeof(OptimHeader) == 64);

// What meta.json says rank `rank`'s shard must be.
struct OptimShardExpectation {
    int rank = 0;
    int world = 1;
    int stage = 0;
    int arrays = 2;
    std::int64_t file_size = 0; // bytes, as recorded in meta.json (and verified)
};

// Reads the header from `in` (positioned at byte 0 of the file `path`) and checks it:
// magic, version, rank, world, stage, arrays as expected, and elems exactly
// (file_size - 64) / (arrays * 4). Throws CheckpointError naming the file otherwise.
OptimHeader readOptimShardHeader(std::istream& in, const std::string& path,
                                 const OptimShardExpectation& expect);

} // namespace zerolab
