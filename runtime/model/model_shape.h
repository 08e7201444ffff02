// The GPT-2 shape (layers, heads, width, context, vocabulary) and its parameter
// tensors. Shared by the model, the planner and the config so that the
// parameter count psi is computed in exactly one place.
#pragma once

#include <array>
#include <cstdint>
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

// Vocabulary rounded up to a multiple of 128 when not given (llm.c pads for GEMM speed);
// vocabularies <= 256 are left as they are.
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

// Element count of one layer's slice of a per-layer tensor, or of the whole
// tensor for wte, wpe, lnfw, lnfb.
inline std::int64_t paramTensorElements(const ModelShape& s, ParamTensor t) {
    const std::int64_t C = s.n_embd, Vp = s.padded_vocab_size, T = s.seq_len;
    switch (t) {
    case ParamTensor::Wte:
        return Vp * C;
    case ParamTensor::Wpe:
        return T * C;
    case ParamTensor::Ln1w:
    case ParamTensor::Ln1b:
        return C;
    case ParamTensor::Qkvw:
        return 3 * C * C;
    case ParamTensor::Qkvb:
        return 3 * C;
    case ParamTensor::Attprojw:
        return C * C;
    case ParamTensor::Attprojb:
        return C;
    case ParamTensor::Ln2w:
    case ParamTensor::Ln2b:
        return C;
    case ParamTensor::Fcw:
        return 4 * C * C;
    case ParamTensor::Fcb:
        return 4 * C;
    case ParamTensor::Fcprojw:
        return 4 * C * C;
    case ParamTensor::Fcprojb:
        return C;
    case ParamTensor::Lnfw:
    case ParamTensor::Lnfb:
        return C;
    }
    return 0;
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

// psi: every parameter, with the padded vocabulary (what is allocated and trained).
inline std::int64_t paramCount(const ModelShape& s) {
    std::int64_t n = 0;
    for (int i = 0; i < kParamTensorCount; ++i) {
        auto t = static_cast<ParamTensor>(i);
        n += paramTensorElements(s, t) * (isPerLayer(t) ? s.n_layer : 1);
    }
    return n;
}

} // namespace zerolab
