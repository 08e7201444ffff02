// Block quantization for ZeRO++'s payloads in the format of storage/block_format.h
// (int8 for qwZ's weights, int4 for qgZ's gradients): host code, on the CPU kernels'
// memory.
#pragma once

#include "kernels/bf16.h"
#include "storage/block_format.h"

#include <cstdint>

namespace zerolab {

// Quantizes n values into `payload` (format.payloadBytes(n) bytes).
void quantizeBlocks(const float* x, std::int64_t n, const BlockFormat& format,
                    std::uint8_t* payload);
void quantizeBlocks(const Bf16* x, std::int64_t n, const BlockFormat& format,
                    std::uint8_t* payload);
// Writes the n dequantized values of `payload` to out (bf16: rounded to nearest).
void dequantizeBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& format,
                      float* out);
void dequantizeBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& format,
                      Bf16* out);
// Adds the n dequantized values of `payload` to out.
void dequantizeAddBlocks(const std::uint8_t* payload, std::int64_t n, const BlockFormat& format,
                         float* out);

} // namespace zerolab
