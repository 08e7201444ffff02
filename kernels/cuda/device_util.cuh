// Device-side helpers shared by the .cu files of kernels/cuda: grid-stride and
// warp-per-row indices, warp reductions, and bf16 conversions with the exact rounding
// of kernels/bf16.h (so the CPU and CUDA kernels agree bit for bit on conversions).
#pragma once

#include "kernels/bf16.h"
#include "kernels/launch_geometry.h"

#include <cstddef>
#include <cstdint>

namespace zerolab::cuda {

// Launch geometry lives in kernels/launch_geometry.h (host-only, tested at real sizes).
inline constexpr int kBlock = launch::kBlock;

// Blocks for a grid-stride loop over n elements (launch::gridStride).
inline unsigned gridFor(std::size_t n, int block = kBlock) {
    return launch::gridStride(n, block).blocks;
}

__device__ inline std::size_t globalIndex() {
    return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ inline std::size_t gridStride() {
    return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}

// The row of a warp-per-row kernel (launch::warpPerRow): warp w of block b has row
// b * (blockDim.x / 32) + w, in 64 bits (rows * T and rows * C pass 2^31 at real sizes).
__device__ inline std::size_t warpRow() {
    return static_cast<std::size_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
}

__device__ inline float warpSum(float x) {
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

__device__ inline double warpSum(double x) {
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

__device__ inline float warpMax(float x) {
    for (int o = 16; o > 0; o >>= 1)
        x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}

// Sum over a block of blockDim.x (a multiple of 32, at most 1024) threads; every thread
// gets the total. `shared` holds 32 values; the call synchronises the block.
template <typename F> __device__ inline F blockSum(F x, F* shared) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    x = warpSum(x);
    __syncthreads(); // shared may still be read by a previous call
    if (lane == 0)
        shared[warp] = x;
    __syncthreads();
    F total = lane < warps ? shared[lane] : F(0);
    return warpSum(total);
}

__device__ inline float blockMax(float x, float* shared) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    x = warpMax(x);
    __syncthreads();
    if (lane == 0)
        shared[warp] = x;
    __syncthreads();
    float m = lane < warps ? shared[lane] : -INFINITY;
    return warpMax(m);
}

// fp32 -> bf16, round to nearest even, NaN kept quiet: bf16FromFloat's bit recipe.
__device__ inline Bf16 toBf16Device(float f) {
    const std::uint32_t u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return Bf16{static_cast<std::uint16_t>((u >> 16) | 0x0040u)};
    const std::uint32_t roundingBias = 0x7fffu + ((u >> 16) & 1u);
    return Bf16{static_cast<std::uint16_t>((u + roundingBias) >> 16)};
}

__device__ inline float toFloatDevice(Bf16 b) {
    return __uint_as_float(static_cast<std::uint32_t>(b.bits) << 16);
}

__device__ inline float loadFloat(const float* p, std::size_t i) {
    return p[i];
}

__device__ inline float loadFloat(const Bf16* p, std::size_t i) {
    return toFloatDevice(p[i]);
}

} // namespace zerolab::cuda
