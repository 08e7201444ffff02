// The flat parameter (and gradient) buffer of the GPT-2 model, cut into gather
// units: the embedding, each transformer block, the final layernorm. The ZeRO
// engine partitions every unit into N equal slices; tensors are views into it.
#pragma once

#include "runtime/model/model_shape.h"

#include <array>
#include <cstdint>
#include <vector>

namespace zerolab {

// One gather unit. Unit 0 = embedding (wte, wpe); units 1..L = transformer blocks
// (the 12 per-layer tensors of layer index-1); unit L+1 = final layernorm (lnfw,
// lnfb). Within a unit the tensors follow llm.c's order, back to back, unpadded;
// the unit's padding (padded_elems - elems zeros) sits at its end.
struct UnitLayout {
    int index = 0;
    std::int64_t offset = 0;       // first element of the unit in the flat buffer
    std::int64_t elems = 0;        // real parameters of the unit
    std::int64_t padded_elems = 0; // elems rounded up to a multiple of pad_multiple
    // Offset of each ParamTensor within the unit, -1 where the unit lacks it.
    std::array<std::int64_t, kParamTensorCount> tensor_offsets{};

    bool has(ParamTensor t) const { return tensor_offsets[static_cast<int>(t)] >= 0; }
    std::int64_t tensorOffset(ParamTensor t) const { return tensor_offsets[static_cast<int>(t)]; }
};

struct ParamLayout {
    ModelShape shape;
    std::vector<UnitLayout> units; // n_layer + 2 units, back to back
    std::int64_t total_elems = 0;  // psi, == paramCount(shape)
    std::int64_t padded_total = 0; // sum of padded_elems: the flat buffer's length
    int pad_multiple = 1;

    int unitCount() const { return static_cast<int>(units.size()); }
    static int embeddingUnit() { return 0; }
    int blockUnit(int layer) const { return layer + 1; }
    int finalNormUnit() const { return unitCount() - 1; }
    // Element offset of tensor t (of `layer` for per-layer tensors) in the flat buffer.
    std::int64_t flatOffset(ParamTensor t, int layer = 0) const;
};

// pad_multiple is N, the data-parallel world size: each unit then splits into N
// equal slices. Throws std::invalid_argument for pad_multiple < 1 or an empty shape.
ParamLayout makeParamLayout(const ModelShape& shape, int pad_multiple);

} // namespace zerolab
