// A model is a family plus its shape (layers, heads, width, context, vocabulary). The
// shape is shared by the model, the planner, the config and the GUI; what the shape
// means (its tensors, activations, FLOPs) is its family's (family.h), so that psi and
// everything derived from it is computed in exactly one place per family.
#pragma once

#include <array>
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

// How attention is computed (model.attention): Standard keeps the (B,NH,T,T) scores and
// probabilities for backward; Flash (FlashAttention-2's online softmax, Kernels::
// flashAttention*) keeps the output and one log-sum-exp per query row, and recomputes
// each tile's probabilities in backward. The choice changes the activation footprint and
// the compute, never the math (equal within fp32 rounding); docs/model.md.
enum class AttentionKernel : std::uint8_t { Standard = 0, Flash = 1 };

// Hugging Face's rope_scaling as a shape carries it (runtime/config/hf_config.h reads it):
// none, "linear" (positions / factor) or "llama3" (Llama 3.1's frequency bands).
enum class RopeScalingType : std::uint8_t { None = 0, Linear = 1, Llama3 = 2 };
struct RopeScalingSpec {
    RopeScalingType type = RopeScalingType::None;
    double factor = 1.0;
    double low_freq_factor = 0.0;
    double high_freq_factor = 0.0;
    int original_max_position_embeddings = 0;
    bool operator==(const RopeScalingSpec&) const = default;
};

struct ModelShape {
    int n_layer = 0;
    int n_head = 0;
    int n_embd = 0;            // C
    int seq_len = 0;           // T, the maximum context (llm.c's maxT)
    int vocab_size = 0;        // V, real tokens
    int padded_vocab_size = 0; // Vp >= V; rows V..Vp-1 of the embedding are never a target
    Family family = Family::Gpt2;
    // The fields below are read by the families that have them (GPT-2 reads none of them
    // but `attention`; its values stay the defaults). Llama family: runtime/model/llama/.
    int n_kv_head = 0;           // key/value heads (GQA); 0: n_head (MHA)
    int head_dim = 0;            // 0: n_embd / n_head
    int ffn_dim = 0;             // the MLP's width (HF intermediate_size); 0: the family's own
    bool tied_head = true;       // the lm head is the embedding (tie_word_embeddings)
    bool qkv_bias = false;       // q/k/v projections carry biases (Qwen2)
    double norm_eps = 1e-5;      // rms_norm_eps
    double rope_theta = 10000.0; // rope_theta
    RopeScalingSpec rope_scaling;
    AttentionKernel attention = AttentionKernel::Standard;

    int kvHeads() const { return n_kv_head > 0 ? n_kv_head : n_head; }
    int headDim() const { return head_dim > 0 ? head_dim : (n_head > 0 ? n_embd / n_head : 0); }

    bool operator==(const ModelShape&) const = default;
    // The same model (parameters and math), whatever the attention kernel.
    bool sameModel(const ModelShape& o) const {
        ModelShape a = *this, b = o;
        a.attention = b.attention = AttentionKernel::Standard;
        return a == b;
    }
};

inline constexpr std::array<std::string_view, 2> kAttentionKernelNames = {"standard", "flash"};
inline constexpr std::string_view attentionKernelName(AttentionKernel a) {
    return kAttentionKernelNames[static_cast<std::size_t>(a)];
}
inline std::optional<AttentionKernel> attentionKernelFromName(std::string_view name) {
    for (std::size_t i = 0; i < kAttentionKernelNames.size(); ++i)
        if (kAttentionKernelNames[i] == name)
            return static_cast<AttentionKernel>(i);
    return std::nullopt;
}

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
