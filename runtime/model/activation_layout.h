// What a model keeps for backward, as the ledger and the planner count it: the bytes of
// its activation arena, per transformer block and the rest. Each family lays out its
// own arena (e.g. gpt2/gpt2_activations.h) and reports its footprint through family.h;
// the model allocates exactly that and the planner forecasts it.
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"

#include <cstdint>

namespace zerolab {

// The largest arena: 2^52 floats (16 PiB), far beyond any device. Below it every byte
// count derived from the arena (4 bytes a float, per layer times L) fits int64.
inline constexpr int kMaxActivationFloatsLog2 = 52;
inline constexpr std::int64_t kMaxActivationFloats = std::int64_t{1} << kMaxActivationFloatsLog2;

// Bytes of the activation arena: per_layer_bytes for each transformer block plus
// other_bytes (tokens, embedding output, shared scratch, final norm, logits, losses, the
// gradient buffers and the recompute buffers). Exactly what the family's network counts
// under MemCategory::Activations.
struct ActivationFootprint {
    long long per_layer_bytes = 0;
    long long other_bytes = 0;
    long long total(int L) const { return per_layer_bytes * L + other_bytes; }
};

// The footprint of `shape`'s family at micro-batch B and sequence length T. Throws
// std::invalid_argument when B < 1, T < 1, T > shape.seq_len, the shape is empty, or
// the arena would exceed kMaxActivationFloats (sizes computed without overflow).
ActivationFootprint activationFootprint(const ModelShape& shape, int B, int T,
                                        Recompute recompute = Recompute::None);

} // namespace zerolab
