// Launch geometry of the CUDA kernels (kernels/cuda), as host functions: how many
// blocks of how many threads each launch uses, and the device limits it must stay
// within. Host-only (no CUDA header), so tests/kernels/launch_geometry_test.cpp checks
// every launch at real model sizes on a machine without a GPU. Every <<<...>>> in
// kernels/cuda takes its grid and block from one of these.
#pragma once

#include "kernels/kernels.h"

#include <cstdint>
#include <string>

namespace zerolab::launch {

// Threads per block of the grid-stride and warp-per-row kernels.
inline constexpr int kBlock = 256;
inline constexpr int kWarp = 32;
// Grid-stride loops launch at most this many blocks: enough to fill an H200's 132 SMs
// several times over; more only adds scheduling.
inline constexpr std::uint64_t kMaxBlocks = 4096;
// Device limits (every device since sm_30, H100/H200 included): gridDim.x, threads per
// block. gridDim.y/z (65535) are unused: every launch here is one-dimensional.
inline constexpr std::uint64_t kMaxGridX = 2147483647u;
inline constexpr int kMaxThreads = 1024;

// grid.x blocks of block.x threads, as a launch takes them.
struct Geometry {
    unsigned blocks = 0;
    int threads = 0;
};

// "" when `blocks` x `threads` is launchable, else what is wrong (blocks 0 or past
// gridDim.x; threads not a whole number of warps or past 1024).
inline std::string problem(std::uint64_t blocks, int threads) {
    if (blocks < 1 || blocks > kMaxGridX)
        return std::to_string(blocks) + " blocks (gridDim.x must be 1 to " +
               std::to_string(kMaxGridX) + ")";
    if (threads < kWarp || threads > kMaxThreads || threads % kWarp != 0)
        return std::to_string(threads) + " threads a block (must be a multiple of 32, at most " +
               std::to_string(kMaxThreads) + ")";
    return "";
}

// The geometry, or KernelError naming the kernel when it cannot be launched (a clear
// message on the host instead of cudaErrorInvalidConfiguration, or a grid that wrapped).
inline Geometry checked(std::uint64_t blocks, int threads, const char* kernel) {
    if (const std::string p = problem(blocks, threads); !p.empty())
        throw KernelError(std::string(kernel) + ": launch of " + p);
    return {static_cast<unsigned>(blocks), threads};
}

// A grid-stride loop over n elements: one block per `block` elements, at least 1, at
// most kMaxBlocks (the loop covers the rest), so never past the limits.
inline Geometry gridStride(std::uint64_t n, int block = kBlock) {
    const std::uint64_t blocks = (n + static_cast<std::uint64_t>(block) - 1) / block;
    return {static_cast<unsigned>(blocks == 0 ? 1 : (blocks < kMaxBlocks ? blocks : kMaxBlocks)),
            block};
}

// One warp per row, block/32 rows a block: every row gets its warp (no grid-stride
// loop), so the grid grows with the rows and is checked against gridDim.x.
inline Geometry warpPerRow(std::uint64_t rows, const char* kernel, int block = kBlock) {
    const std::uint64_t perBlock = static_cast<std::uint64_t>(block) / kWarp;
    return checked((rows + perBlock - 1) / perBlock, block, kernel);
}

// One block per row.
inline Geometry blockPerRow(std::uint64_t rows, int block, const char* kernel) {
    return checked(rows, block, kernel);
}

// A fixed grid (the sum-of-squares partials, single-block kernels).
inline Geometry fixed(std::uint64_t blocks, int block, const char* kernel) {
    return checked(blocks, block, kernel);
}

} // namespace zerolab::launch
