// The host side of the rotary position embedding (Kernels::ropeForward/ropeBackward):
// the inverse frequencies of Hugging Face's LlamaRotaryEmbedding, with Llama 3.1's
// "llama3" rope_scaling, and the cos/sin table the kernels read.
//
// Why a table rather than sin/cos in the kernels: the table is computed once per run in
// double and rounded to fp32, so every backend (CPU, CUDA) and every layer rotates with
// the same, correctly rounded values; the kernels then do 4 multiplies per pair and no
// transcendental, and its size (ropeTableFloats) is small and exact for the planner.
// Parity with HF: HF computes the angle pos * inv_freq and its cos/sin in fp32, so its
// table carries the fp32 rounding of the angle (up to about pos * 2^-23 rad: ~5e-4 at
// position 4095, ~1.6e-2 at 131071), which ours does not; ours is the exact function
// rounded once. Below bf16 resolution (2^-8) up to positions of tens of thousands.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace zerolab {

// rope_scaling of rope_type "llama3" (Llama 3.1 / 3.2 config.json), HF's field names.
struct RopeScaling {
    double factor = 0.0;                        // "factor" (8 in Llama 3.1, 32 in 3.2)
    double lowFreqFactor = 0.0;                 // "low_freq_factor"
    double highFreqFactor = 0.0;                // "high_freq_factor"
    double originalMaxPositionEmbeddings = 0.0; // "original_max_position_embeddings"
};

// inv_freq of HF's LlamaRotaryEmbedding for head size hs at rope_theta `theta`: hs/2 values,
//   f_i = theta^(-2i/hs)   (_compute_default_rope_parameters),
// then, with scaling (_compute_llama3_parameters), wavelen_i = 2 pi / f_i,
// lo = original / lowFreqFactor, hi = original / highFreqFactor:
//   wavelen_i < hi:        f_i unchanged
//   wavelen_i > lo:        f_i / factor
//   otherwise:             (1 - s) f_i / factor + s f_i, s = (original / wavelen_i - lowFreqFactor)
//                                                            / (highFreqFactor - lowFreqFactor).
// In double. KernelError for an odd or non-positive hs, theta <= 0, or scaling values that
// are not positive or have highFreqFactor <= lowFreqFactor (HF would divide by zero).
std::vector<double> ropeInvFreq(int hs, double theta,
                                const std::optional<RopeScaling>& scaling = std::nullopt);

// Floats in the table for T positions at head size hs: T * hs (cos and sin of hs/2 angles
// per position). What the planner counts; one table serves every layer, q and k.
std::size_t ropeTableFloats(int T, int hs);

// The table the rope kernels read, for positions 0..T-1 and hs = 2 * invFreq.size(): row t
// (hs floats) holds cos(t f_i) for i < hs/2, then sin(t f_i); the angle and its cos and sin
// in double, each rounded once to fp32. A table for T serves any shorter sequence.
std::vector<float> ropeTable(int T, const std::vector<double>& invFreq);

// Checks the shape arguments of ropeForward/ropeBackward (both backends call it) and throws
// KernelError naming `op` and the offending value: B, T, H >= 0, hs even and > 0,
// rowStride >= H * hs.
void checkRopeShape(const char* op, int B, int T, int H, int hs, int rowStride);

} // namespace zerolab
