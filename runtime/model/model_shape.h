// The GPT-2 shape (layers, heads, width, context, vocabulary) and its parameter
// tensors. Shared by the model, the planner and the config so that the
// parameter count psi is computed in exactly one place.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

struct ModelShape {
    int n_layer = 0;
    int n_head = 0;
    int n_embd = 0;            // C
    int seq_len = 0;           // T, the maximum context (llm.c's maxT)
    int vocab_size = 0;        // V, real tokens
    int padded_vocab_size = 0; // Vp >= V; rows V..Vp-1 of wte are never a target

    bool operator==(const ModelShape&) const = default;
};

// Named presets of the config's model.preset. gpt2-124m pads 50257 to 50304 as llm.c does.
struct ModelPreset {
    std::string_view name;
    ModelShape shape;
};
inline constexpr std::array<ModelPreset, 4> kModelPresets = {{
    {"nano", {2, 2, 64, 64, 256, 256}},
    {"micro", {4, 4, 256, 128, 256, 256}},
    {"mini", {6, 6, 384, 256, 256, 256}},
    {"gpt2-124m", {12, 12, 768, 1024, 50257, 50304}},
}};

inline std::optional<ModelShape> findModelPreset(std::string_view name) {
    for (const auto& p : kModelPresets)
        if (p.name == name)
            return p.shape;
    return std::nullopt;
}

// The largest vocabulary whose padding (padVocab) fits an int.
inline constexpr int kMaxVocab = std::numeric_limits<int>::max() / 128 * 128;

// Vocabulary rounded up to a multiple of 128 when not given (llm.c pads for GEMM speed);
// vocabularies <= 256 are left as they are. v <= kMaxVocab.
inline int padVocab(int v) {
    return v <= 256 ? v : (v + 127) / 128 * 128;
}

// The 16 parameter tensors in llm.c's file order. Per-layer tensors hold all
// n_layer layers back to back in the llm.c file.
enum class ParamTensor : int {
    Wte = 0,
    Wpe,
    Ln1w,
    Ln1b,
    Qkvw,
    Qkvb,
    Attprojw,
    Attprojb,
    Ln2w,
    Ln2b,
    Fcw,
    Fcb,
    Fcprojw,
    Fcprojb,
    Lnfw,
    Lnfb,
};
inline constexpr int kParamTensorCount = 16;
inline constexpr std::array<std::string_view, kParamTensorCount> kParamTensorNames = {
    "wte",  "wpe",  "ln1w", "ln1b", "qkvw",    "qkvb",    "attprojw", "attprojb",
    "ln2w", "ln2b", "fcw",  "fcb",  "fcprojw", "fcprojb", "lnfw",     "lnfb",
};

// The sizes whose product is the element count of one layer's slice of a per-layer
// tensor, or of the whole tensor for wte, wpe, lnfw, lnfb.
inline std::array<std::int64_t, 3> paramTensorFactors(const ModelShape& s, ParamTensor t) {
    const std::int64_t C = s.n_embd, Vp = s.padded_vocab_size, T = s.seq_len;
    switch (t) {
    case ParamTensor::Wte:
        return {Vp, C, 1};
    case ParamTensor::Wpe:
        return {T, C, 1};
    case ParamTensor::Qkvw:
        return {3, C, C};
    case ParamTensor::Qkvb:
        return {3, C, 1};
    case ParamTensor::Attprojw:
        return {C, C, 1};
    case ParamTensor::Fcw:
    case ParamTensor::Fcprojw:
        return {4, C, C};
    case ParamTensor::Fcb:
        return {4, C, 1};
    case ParamTensor::Ln1w:
    case ParamTensor::Ln1b:
    case ParamTensor::Attprojb:
    case ParamTensor::Ln2w:
    case ParamTensor::Ln2b:
    case ParamTensor::Fcprojb:
    case ParamTensor::Lnfw:
    case ParamTensor::Lnfb:
        return {C, 1, 1};
    }
    return {0, 1, 1};
}

// Element count of one layer's slice of a per-layer tensor, or of the whole
// tensor for wte, wpe, lnfw, lnfb. For a shape checkedParamCount accepts.
inline std::int64_t paramTensorElements(const ModelShape& s, ParamTensor t) {
    const auto f = paramTensorFactors(s, t);
    return f[0] * f[1] * f[2];
}

inline bool isPerLayer(ParamTensor t) {
    return t != ParamTensor::Wte && t != ParamTensor::Wpe && t != ParamTensor::Lnfw &&
           t != ParamTensor::Lnfb;
}

// Parameters of one transformer block.
inline std::int64_t blockParamCount(const ModelShape& s) {
    std::int64_t n = 0;
    for (int i = 0; i < kParamTensorCount; ++i)
        if (isPerLayer(static_cast<ParamTensor>(i)))
            n += paramTensorElements(s, static_cast<ParamTensor>(i));
    return n;
}

// More parameters than any machine holds (2^48, 2.8e14). Below it every byte count
// derived from psi (16 bytes a parameter, a few copies, times the ranks) fits int64.
inline constexpr std::int64_t kMaxParamCount = std::int64_t{1} << 48;

// psi computed without overflow, for shapes from untrusted input (a config, a file
// header): nullopt when a dimension is negative or psi exceeds kMaxParamCount.
inline std::optional<std::int64_t> checkedParamCount(const ModelShape& s) {
    if (s.n_layer < 0 || s.n_head < 0 || s.n_embd < 0 || s.seq_len < 0 || s.vocab_size < 0 ||
        s.padded_vocab_size < 0)
        return std::nullopt;
    std::int64_t total = 0;
    for (int i = 0; i < kParamTensorCount; ++i) {
        const auto t = static_cast<ParamTensor>(i);
        std::int64_t n = isPerLayer(t) ? s.n_layer : 1;
        for (std::int64_t f : paramTensorFactors(s, t))
            if (__builtin_mul_overflow(n, f, &n))
                return std::nullopt;
        if (__builtin_add_overflow(total, n, &total) || total > kMaxParamCount)
            return std::nullopt;
    }
    return total;
}

// psi: every parameter, with the padded vocabulary (what is allocated and trained).
// For a shape checkedParamCount accepts (every shape in a resolved config is one).
inline std::int64_t paramCount(const ModelShape& s) {
    std::int64_t n = 0;
    for (int i = 0; i < kParamTensorCount; ++i) {
        auto t = static_cast<ParamTensor>(i);
        n += paramTensorElements(s, t) * (isPerLayer(t) ? s.n_layer : 1);
    }
    return n;
}

} // namespace zerolab
