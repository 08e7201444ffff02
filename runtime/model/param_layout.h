// The flat parameter (and gradient) buffer of a model, cut into gather units: the
// embedding, each transformer block, the final unit (the final norm, and an untied head
// where a family has one). The ZeRO engine partitions every unit into N equal slices;
// tensors are views into it. Which tensors exist, and in which unit, is the family's
// (family.h, TensorSpec); the cutting is the same for every family.
#pragma once

#include "runtime/model/model_shape.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

namespace zerolab {

// Which gather unit a parameter tensor lives in.
enum class UnitRole : std::uint8_t { Embedding, Block, Final };

// One parameter tensor of a family, in the family's file order (its index is the
// family's tensor enum value). A Block tensor has one slice per layer.
struct TensorSpec {
    std::string_view name;
    UnitRole role = UnitRole::Block;
    // The sizes whose product is the element count (of one layer's slice, for Block).
    std::array<std::int64_t, 3> factors{0, 1, 1};
    std::int64_t elements() const { return factors[0] * factors[1] * factors[2]; }
    bool operator==(const TensorSpec&) const = default;
};

// The most tensors a family may have.
inline constexpr int kMaxFamilyTensors = 32;

// One gather unit. Unit 0 = embedding; units 1..L = transformer blocks (the Block
// tensors of layer index-1); unit L+1 = the final unit. Within a unit the tensors follow
// the family's order, back to back, unpadded; the unit's padding (padded_elems - elems
// zeros) sits at its end.
struct UnitLayout {
    int index = 0;
    std::int64_t offset = 0;       // first element of the unit in the flat buffer
    std::int64_t elems = 0;        // real parameters of the unit
    std::int64_t padded_elems = 0; // elems rounded up to a multiple of pad_multiple
    // Offset of each tensor (the family's index) within the unit, -1 where the unit lacks it.
    std::array<std::int64_t, kMaxFamilyTensors> tensor_offsets{};

    bool has(int t) const { return tensor_offsets[static_cast<std::size_t>(t)] >= 0; }
    std::int64_t tensorOffset(int t) const { return tensor_offsets[static_cast<std::size_t>(t)]; }
    // A family's tensor enum (e.g. Gpt2Tensor) names its index.
    template <typename E>
    requires std::is_enum_v<E>
    bool has(E t) const { return has(static_cast<int>(t)); }
    template <typename E>
    requires std::is_enum_v<E> std::int64_t tensorOffset(E t)
    const { return tensorOffset(static_cast<int>(t)); }
};

struct ParamLayout {
    ModelShape shape;
    std::vector<TensorSpec> tensors; // the family's, for this shape
    std::vector<UnitLayout> units;   // n_layer + 2 units, back to back
    std::int64_t total_elems = 0;    // psi, == paramCount(shape)
    std::int64_t padded_total = 0;   // sum of padded_elems: the flat buffer's length
    int pad_multiple = 1;

    int unitCount() const { return static_cast<int>(units.size()); }
    static int embeddingUnit() { return 0; }
    int blockUnit(int layer) const { return layer + 1; }
    int finalNormUnit() const { return unitCount() - 1; }
    // Element offset of tensor t (of `layer` for Block tensors) in the flat buffer.
    std::int64_t flatOffset(int t, int layer = 0) const;
    template <typename E>
    requires std::is_enum_v<E> std::int64_t flatOffset(E t, int layer = 0)
    const { return flatOffset(static_cast<int>(t), layer); }
};

// pad_multiple is N, the data-parallel world size: each unit then splits into N
// equal slices. Throws std::invalid_argument for pad_multiple < 1 or an empty shape.
ParamLayout makeParamLayout(const ModelShape& shape, int pad_multiple);

} // namespace zerolab
