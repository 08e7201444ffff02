// The GPT-2 family's parameter tensors (llm.c's 16, in its file order) and presets.
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace zerolab {

// The GPT-2 presets of model.preset. gpt2-124m pads 50257 to 50304 as llm.c does.
inline constexpr std::array<ModelPreset, 4> kGpt2Presets = {{
    {"nano", {2, 2, 64, 64, 256, 256, Family::Gpt2}},
    {"micro", {4, 4, 256, 128, 256, 256, Family::Gpt2}},
    {"mini", {6, 6, 384, 256, 256, 256, Family::Gpt2}},
    {"gpt2-124m", {12, 12, 768, 1024, 50257, 50304, Family::Gpt2}},
}};

// The 16 parameter tensors in llm.c's file order. Per-layer tensors hold all
// n_layer layers back to back in the llm.c file.
enum class Gpt2Tensor : int {
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
inline constexpr int kGpt2TensorCount = 16;
inline constexpr std::array<std::string_view, kGpt2TensorCount> kGpt2TensorNames = {
    "wte",  "wpe",  "ln1w", "ln1b", "qkvw",    "qkvb",    "attprojw", "attprojb",
    "ln2w", "ln2b", "fcw",  "fcb",  "fcprojw", "fcprojb", "lnfw",     "lnfb",
};

// The sizes whose product is the element count of one layer's slice of a per-layer
// tensor, or of the whole tensor for wte, wpe, lnfw, lnfb.
inline std::array<std::int64_t, 3> gpt2TensorFactors(const ModelShape& s, Gpt2Tensor t) {
    const std::int64_t C = s.n_embd, Vp = s.padded_vocab_size, T = s.seq_len;
    switch (t) {
    case Gpt2Tensor::Wte:
        return {Vp, C, 1};
    case Gpt2Tensor::Wpe:
        return {T, C, 1};
    case Gpt2Tensor::Qkvw:
        return {3, C, C};
    case Gpt2Tensor::Qkvb:
        return {3, C, 1};
    case Gpt2Tensor::Attprojw:
        return {C, C, 1};
    case Gpt2Tensor::Fcw:
    case Gpt2Tensor::Fcprojw:
        return {4, C, C};
    case Gpt2Tensor::Fcb:
        return {4, C, 1};
    case Gpt2Tensor::Ln1w:
    case Gpt2Tensor::Ln1b:
    case Gpt2Tensor::Attprojb:
    case Gpt2Tensor::Ln2w:
    case Gpt2Tensor::Ln2b:
    case Gpt2Tensor::Fcprojb:
    case Gpt2Tensor::Lnfw:
    case Gpt2Tensor::Lnfb:
        return {C, 1, 1};
    }
    return {0, 1, 1};
}

// Element count of one layer's slice of a per-layer tensor, or of the whole
// tensor for wte, wpe, lnfw, lnfb.
inline std::int64_t gpt2TensorElements(const ModelShape& s, Gpt2Tensor t) {
    const auto f = gpt2TensorFactors(s, t);
    return f[0] * f[1] * f[2];
}

inline bool isPerLayer(Gpt2Tensor t) {
    return t != Gpt2Tensor::Wte && t != Gpt2Tensor::Wpe && t != Gpt2Tensor::Lnfw &&
           t != Gpt2Tensor::Lnfb;
}

inline UnitRole gpt2TensorRole(Gpt2Tensor t) {
    if (t == Gpt2Tensor::Wte || t == Gpt2Tensor::Wpe)
        return UnitRole::Embedding;
    if (t == Gpt2Tensor::Lnfw || t == Gpt2Tensor::Lnfb)
        return UnitRole::Final;
    return UnitRole::Block;
}

// The family's TensorSpec list (family.h): the 16 tensors in llm.c's order.
inline std::vector<TensorSpec> gpt2Tensors(const ModelShape& s) {
    std::vector<TensorSpec> specs;
    for (int i = 0; i < kGpt2TensorCount; ++i) {
        const auto t = static_cast<Gpt2Tensor>(i);
        specs.push_back({kGpt2TensorNames[i], gpt2TensorRole(t), gpt2TensorFactors(s, t)});
    }
    return specs;
}

} // namespace zerolab
