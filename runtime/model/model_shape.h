// A model is a family plus its shape (layers, heads, width, context, vocabulary). The
// shape is shared by the model, the planner, the config and the GUI; what the shape
// means (its tensors, activations, FLOPs) is its family's (family.h), so that psi and
// everything derived from it is computed in exactly one place per family.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

namespace zerolab {

// The registered families (families.def), in its order.
enum class Family : std::uint8_t {
#define ZEROLAB_FAMILY(Enum, folder) Enum,
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY
};

struct ModelShape {
    int n_layer = 0;
    int n_head = 0;
    int n_embd = 0;            // C
    int seq_len = 0;           // T, the maximum context (llm.c's maxT)
    int vocab_size = 0;        // V, real tokens
    int padded_vocab_size = 0; // Vp >= V; rows V..Vp-1 of the embedding are never a target
    Family family = Family::Gpt2;

    bool operator==(const ModelShape&) const = default;
};

// A named shape of the config's model.preset; every family lists its own (family.h).
struct ModelPreset {
    std::string_view name;
    ModelShape shape;
};

// Every family's presets, in registry order, then each family's own order.
std::span<const ModelPreset> modelPresets();
std::optional<ModelShape> findModelPreset(std::string_view name);

// The largest vocabulary whose padding (padVocab) fits an int.
inline constexpr int kMaxVocab = std::numeric_limits<int>::max() / 128 * 128;

// Vocabulary rounded up to a multiple of 128 when not given (llm.c pads for GEMM speed);
// vocabularies <= 256 are left as they are. v <= kMaxVocab.
inline int padVocab(int v) {
    return v <= 256 ? v : (v + 127) / 128 * 128;
}

// More parameters than any machine holds (2^48, 2.8e14). Below it every byte count
// derived from psi (16 bytes a parameter, a few copies, times the ranks) fits int64.
inline constexpr std::int64_t kMaxParamCount = std::int64_t{1} << 48;

// psi computed without overflow from the family's tensors, for shapes from untrusted
// input (a config, a file header): nullopt when a dimension is negative or psi exceeds
// kMaxParamCount.
std::optional<std::int64_t> checkedParamCount(const ModelShape& s);

// psi: every parameter, with the padded vocabulary (what is allocated and trained).
// For a shape checkedParamCount accepts (every shape in a resolved config is one).
std::int64_t paramCount(const ModelShape& s);

// Parameters of one transformer block.
std::int64_t blockParamCount(const ModelShape& s);

} // namespace zerolab
