// The Llama family's parameter tensors (Hugging Face LlamaForCausalLM's, with Qwen2's
// q/k/v biases) and presets. Names are HF's without the "model." / "layers.N." prefix
// (llama_hf_names.h maps them to a checkpoint's keys).
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace zerolab {

namespace llama_detail {
// rope_scaling "llama3" of Llama 3.1 (factor 8) and 3.2 (factor 32).
inline constexpr RopeScalingSpec kLlama31Rope = {RopeScalingType::Llama3, 8.0, 1.0, 4.0, 8192};
inline constexpr RopeScalingSpec kLlama32Rope = {RopeScalingType::Llama3, 32.0, 1.0, 4.0, 8192};
inline constexpr RopeScalingSpec kNoRope = {};

// A Llama shape: padded_vocab_size == vocab_size (HF does not pad the embedding);
// n_kv_head and head_dim always given (a Llama shape never leaves them 0).
constexpr ModelShape llamaShape(int L, int H, int KV, int C, int F, int T, int V, bool tied,
                                bool qkv_bias, double eps, double theta, RopeScalingSpec rope,
                                int head_dim) {
    ModelShape s;
    s.n_layer = L;
    s.n_head = H;
    s.n_embd = C;
    s.seq_len = T;
    s.vocab_size = V;
    s.padded_vocab_size = V;
    s.family = Family::Llama;
    s.n_kv_head = KV;
    s.head_dim = head_dim;
    s.ffn_dim = F;
    s.tied_head = tied;
    s.qkv_bias = qkv_bias;
    s.norm_eps = eps;
    s.rope_theta = theta;
    s.rope_scaling = rope;
    s.attention = AttentionKernel::Flash;
    return s;
}
} // namespace llama_detail

// The Llama-family presets of model.preset. The published ones follow their HF
// config.json (resources/models/, whose test checks preset == file); the tiny ones train
// here in seconds, sized like GPT-2's nano/micro/mini, with GQA and SwiGLU.
inline constexpr std::array<ModelPreset, 11> kLlamaPresets = [] {
    using namespace llama_detail;
    return std::array<ModelPreset, 11>{{
        {"llama-nano",
         llamaShape(2, 4, 2, 64, 176, 64, 256, true, false, 1e-5, 10000.0, kNoRope, 16)},
        {"llama-micro",
         llamaShape(4, 4, 2, 256, 688, 128, 256, false, false, 1e-5, 10000.0, kNoRope, 64)},
        {"llama-mini",
         llamaShape(6, 6, 2, 384, 1024, 256, 256, false, false, 1e-5, 10000.0, kNoRope, 64)},
        {"llama-3.2-1b", llamaShape(16, 32, 8, 2048, 8192, 131072, 128256, true, false, 1e-5,
                                    500000.0, kLlama32Rope, 64)},
        {"llama-3.2-3b", llamaShape(28, 24, 8, 3072, 8192, 131072, 128256, true, false, 1e-5,
                                    500000.0, kLlama32Rope, 128)},
        {"llama-3.1-8b", llamaShape(32, 32, 8, 4096, 14336, 131072, 128256, false, false, 1e-5,
                                    500000.0, kLlama31Rope, 128)},
        {"llama-3.1-70b", llamaShape(80, 64, 8, 8192, 28672, 131072, 128256, false, false, 1e-5,
                                     500000.0, kLlama31Rope, 128)},
        {"llama-3.1-405b", llamaShape(126, 128, 8, 16384, 53248, 131072, 128256, false, false, 1e-5,
                                      500000.0, kLlama31Rope, 128)},
        {"qwen2.5-0.5b",
         llamaShape(24, 14, 2, 896, 4864, 32768, 151936, true, true, 1e-6, 1000000.0, kNoRope, 64)},
        {"qwen2.5-7b", llamaShape(28, 28, 4, 3584, 18944, 131072, 152064, false, true, 1e-6,
                                  1000000.0, kNoRope, 128)},
        // Mistral's sliding window (4096) equals full causal attention up to 4096 tokens,
        // its context here (hf_config.h, hfContextProblem).
        {"mistral-7b-v0.1", llamaShape(32, 32, 8, 4096, 14336, 4096, 32000, false, false, 1e-5,
                                       10000.0, kNoRope, 128)},
    }};
}();

// The parameter tensors in HF's order within a layer. The biases and lm_head exist only
// where the shape has them (qkv_bias, !tied_head): their factors are then 0 and they
// occupy nothing (a zero-element tensor is absent from files and from the math).
enum class LlamaTensor : int {
    EmbedTokens = 0,        // model.embed_tokens.weight (Vp, C)            Embedding
    InputLayernorm,         // input_layernorm.weight (C)                    Block
    QProj,                  // self_attn.q_proj.weight (NH*hd, C)
    QBias,                  // self_attn.q_proj.bias (NH*hd), Qwen2
    KProj,                  // self_attn.k_proj.weight (NKV*hd, C)
    KBias,                  // self_attn.k_proj.bias (NKV*hd), Qwen2
    VProj,                  // self_attn.v_proj.weight (NKV*hd, C)
    VBias,                  // self_attn.v_proj.bias (NKV*hd), Qwen2
    OProj,                  // self_attn.o_proj.weight (C, NH*hd)
    PostAttentionLayernorm, // post_attention_layernorm.weight (C)
    GateProj,               // mlp.gate_proj.weight (F, C)
    UpProj,                 // mlp.up_proj.weight (F, C)
    DownProj,               // mlp.down_proj.weight (C, F)
    Norm,                   // model.norm.weight (C)                         Final
    LmHead,                 // lm_head.weight (Vp, C), untied heads only      Final
};
inline constexpr int kLlamaTensorCount = 15;
inline constexpr std::array<std::string_view, kLlamaTensorCount> kLlamaTensorNames = {
    "embed_tokens", "input_layernorm", "q_proj",      "q_proj.bias", "k_proj",
    "k_proj.bias",  "v_proj",          "v_proj.bias", "o_proj",      "post_attention_layernorm",
    "gate_proj",    "up_proj",         "down_proj",   "norm",        "lm_head",
};

inline std::array<std::int64_t, 3> llamaTensorFactors(const ModelShape& s, LlamaTensor t) {
    const std::int64_t C = s.n_embd, Vp = s.padded_vocab_size, F = s.ffn_dim;
    const std::int64_t q = static_cast<std::int64_t>(s.n_head) * s.headDim();
    const std::int64_t kv = static_cast<std::int64_t>(s.kvHeads()) * s.headDim();
    const std::int64_t bias = s.qkv_bias ? 1 : 0;
    switch (t) {
    case LlamaTensor::EmbedTokens:
        return {Vp, C, 1};
    case LlamaTensor::InputLayernorm:
    case LlamaTensor::PostAttentionLayernorm:
    case LlamaTensor::Norm:
        return {C, 1, 1};
    case LlamaTensor::QProj:
        return {q, C, 1};
    case LlamaTensor::QBias:
        return {q, bias, 1};
    case LlamaTensor::KProj:
    case LlamaTensor::VProj:
        return {kv, C, 1};
    case LlamaTensor::KBias:
    case LlamaTensor::VBias:
        return {kv, bias, 1};
    case LlamaTensor::OProj:
        return {C, q, 1};
    case LlamaTensor::GateProj:
    case LlamaTensor::UpProj:
    case LlamaTensor::DownProj:
        return {F, C, 1};
    case LlamaTensor::LmHead:
        return {Vp, C, s.tied_head ? 0 : 1};
    }
    return {0, 1, 1};
}

// Elements of tensor t (of one layer's slice for Block tensors); 0 for a tensor the shape
// does not have.
inline std::int64_t llamaTensorElements(const ModelShape& s, LlamaTensor t) {
    const auto f = llamaTensorFactors(s, t);
    return f[0] * f[1] * f[2];
}

inline UnitRole llamaTensorRole(LlamaTensor t) {
    if (t == LlamaTensor::EmbedTokens)
        return UnitRole::Embedding;
    if (t == LlamaTensor::Norm || t == LlamaTensor::LmHead)
        return UnitRole::Final;
    return UnitRole::Block;
}

// The family's TensorSpec list (family.h).
inline std::vector<TensorSpec> llamaTensors(const ModelShape& s) {
    std::vector<TensorSpec> specs;
    for (int i = 0; i < kLlamaTensorCount; ++i) {
        const auto t = static_cast<LlamaTensor>(i);
        specs.push_back({kLlamaTensorNames[i], llamaTensorRole(t), llamaTensorFactors(s, t)});
    }
    return specs;
}

} // namespace zerolab
