// The Llama family's tensors under their Hugging Face names and shapes (LlamaForCausalLM,
// Qwen2ForCausalLM: "model.layers.3.self_attn.q_proj.weight" [NH*hd, C]), the check that
// a safetensors checkpoint holds exactly those, and the copies between such a checkpoint
// and the flat parameter buffer: what model.init_from reads and --export-model writes. The flat
// layout keeps each tensor as HF lays it out (row-major, nn.Linear's [out, in]), so a tensor is
// copied, never transposed or permuted.
#pragma once

#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/safetensors.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace zerolab {

// One tensor as a Hugging Face checkpoint stores it.
struct LlamaHfTensor {
    std::string name; // "model.layers.0.input_layernorm.weight"
    LlamaTensor tensor = LlamaTensor::EmbedTokens;
    int layer = 0; // Block tensors; 0 otherwise
    std::vector<std::int64_t> shape;
    std::int64_t elements = 0;
};

// The HF name of tensor t (of `layer` for a Block tensor).
inline std::string llamaHfTensorName(LlamaTensor t, int layer) {
    const std::string block = "model.layers." + std::to_string(layer) + ".";
    switch (t) {
    case LlamaTensor::EmbedTokens:
        return "model.embed_tokens.weight";
    case LlamaTensor::InputLayernorm:
        return block + "input_layernorm.weight";
    case LlamaTensor::QProj:
        return block + "self_attn.q_proj.weight";
    case LlamaTensor::QBias:
        return block + "self_attn.q_proj.bias";
    case LlamaTensor::KProj:
        return block + "self_attn.k_proj.weight";
    case LlamaTensor::KBias:
        return block + "self_attn.k_proj.bias";
    case LlamaTensor::VProj:
        return block + "self_attn.v_proj.weight";
    case LlamaTensor::VBias:
        return block + "self_attn.v_proj.bias";
    case LlamaTensor::OProj:
        return block + "self_attn.o_proj.weight";
    case LlamaTensor::PostAttentionLayernorm:
        return block + "post_attention_layernorm.weight";
    case LlamaTensor::GateProj:
        return block + "mlp.gate_proj.weight";
    case LlamaTensor::UpProj:
        return block + "mlp.up_proj.weight";
    case LlamaTensor::DownProj:
        return block + "mlp.down_proj.weight";
    case LlamaTensor::Norm:
        return "model.norm.weight";
    case LlamaTensor::LmHead:
        return "lm_head.weight";
    }
    return {};
}

// The shape HF stores tensor t in: nn.Linear's [out, in], the norms and biases 1-D. Its
// product is llamaTensorFactors' (down_proj's factors list F first, but HF's tensor, and
// the flat layout's rows, are [C, F]).
inline std::vector<std::int64_t> llamaHfTensorShape(const ModelShape& s, LlamaTensor t) {
    const std::int64_t C = s.n_embd, Vp = s.padded_vocab_size, F = s.ffn_dim;
    const std::int64_t q = static_cast<std::int64_t>(s.n_head) * s.headDim();
    const std::int64_t kv = static_cast<std::int64_t>(s.kvHeads()) * s.headDim();
    switch (t) {
    case LlamaTensor::EmbedTokens:
    case LlamaTensor::LmHead:
        return {Vp, C};
    case LlamaTensor::InputLayernorm:
    case LlamaTensor::PostAttentionLayernorm:
    case LlamaTensor::Norm:
        return {C};
    case LlamaTensor::QProj:
        return {q, C};
    case LlamaTensor::QBias:
        return {q};
    case LlamaTensor::KProj:
    case LlamaTensor::VProj:
        return {kv, C};
    case LlamaTensor::KBias:
    case LlamaTensor::VBias:
        return {kv};
    case LlamaTensor::OProj:
        return {C, q};
    case LlamaTensor::GateProj:
    case LlamaTensor::UpProj:
        return {F, C};
    case LlamaTensor::DownProj:
        return {C, F};
    }
    return {};
}

// Every tensor a checkpoint of shape `s` holds, in HF's order (embedding, each layer's,
// the final norm, the head): the shape's tensors (llamaTensorFactors) that are not empty:
// a shape without biases has none, a tied one no head.
inline std::vector<LlamaHfTensor> llamaHfTensors(const ModelShape& s) {
    std::vector<LlamaHfTensor> out;
    auto add = [&](LlamaTensor t, int layer) {
        const auto f = llamaTensorFactors(s, t);
        const std::int64_t n = f[0] * f[1] * f[2];
        if (n > 0)
            out.push_back({llamaHfTensorName(t, layer), t, layer, llamaHfTensorShape(s, t), n});
    };
    add(LlamaTensor::EmbedTokens, 0);
    for (int l = 0; l < s.n_layer; ++l)
        for (int i = static_cast<int>(LlamaTensor::InputLayernorm);
             i <= static_cast<int>(LlamaTensor::DownProj); ++i)
            add(static_cast<LlamaTensor>(i), l);
    add(LlamaTensor::Norm, 0);
    add(LlamaTensor::LmHead, 0);
    return out;
}

namespace llama_detail {
inline std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string t = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        t += (i ? ", " : "") + std::to_string(shape[i]);
    return t + "]";
}
} // namespace llama_detail

// Checks that `ckpt` (opened from `path`) holds exactly the tensors of shape `s`, each
// of its shape in F32, BF16 or F16 (read exactly as fp32). Throws SafetensorsError naming
// the file that holds the tensor (the shard, or `path`), the tensor and what is wrong;
// the first missing tensor is reported before any extra one.
inline void checkLlamaHfCheckpoint(const SafetensorsCheckpoint& ckpt, const std::string& path,
                                   const ModelShape& s) {
    std::set<std::string> expected;
    for (const LlamaHfTensor& t : llamaHfTensors(s)) {
        expected.insert(t.name);
        const SafetensorsTensorInfo* info = ckpt.find(t.name);
        if (info == nullptr)
            throw SafetensorsError(path + ": tensor \"" + t.name +
                                   "\" is missing (the model of its config.json has it, shape " +
                                   llama_detail::shapeText(t.shape) + ")");
        const std::string& file = ckpt.fileOf(t.name).path();
        if (info->shape != t.shape)
            throw SafetensorsError(file + ": tensor \"" + t.name + "\": shape " +
                                   llama_detail::shapeText(info->shape) + ", the model's is " +
                                   llama_detail::shapeText(t.shape));
        if (info->dtype != SafetensorsDtype::F32 && info->dtype != SafetensorsDtype::BF16 &&
            info->dtype != SafetensorsDtype::F16)
            throw SafetensorsError(file + ": tensor \"" + t.name + "\": dtype " +
                                   std::string(safetensorsDtypeName(info->dtype)) +
                                   " is not read (F32, BF16 or F16)");
    }
    for (const std::string& name : ckpt.names())
        if (!expected.count(name))
            throw SafetensorsError(
                ckpt.fileOf(name).path() + ": tensor \"" + name +
                "\" is not a tensor of the model its config.json describes" +
                (name == "lm_head.weight" && s.tied_head
                     ? " (tie_word_embeddings is true: the head is the embedding)"
                     : ""));
}

// Reads every tensor of `ckpt` (checked by checkLlamaHfCheckpoint for layout.shape) into
// its place in the flat buffer `flat` (layout.padded_total floats), the units' padding
// zeroed. Throws SafetensorsError (a read error: the file shrank since it was checked).
inline void readLlamaHfWeights(const SafetensorsCheckpoint& ckpt, const std::string& path,
                               const ParamLayout& layout, float* flat) {
    checkLlamaHfCheckpoint(ckpt, path, layout.shape);
    for (const UnitLayout& u : layout.units)
        std::fill(flat + u.offset + u.elems, flat + u.offset + u.padded_elems, 0.0f);
    for (const LlamaHfTensor& t : llamaHfTensors(layout.shape))
        ckpt.readF32(t.name, std::span<float>(flat + layout.flatOffset(t.tensor, t.layer),
                                              static_cast<std::size_t>(t.elements)));
}

// Writes the model in `flat` (layout.padded_total floats) as one Hugging Face
// .safetensors file, every tensor under its HF name and shape, stored as `dtype` (F32, or
// BF16 rounded to nearest even), with transformers' metadata {"format": "pt"}. Throws
// SafetensorsError.
inline void writeLlamaHfWeights(const std::string& path, const ParamLayout& layout,
                                const float* flat, SafetensorsDtype dtype) {
    const std::vector<LlamaHfTensor> tensors = llamaHfTensors(layout.shape);
    std::vector<SafetensorsTensorToWrite> out;
    out.reserve(tensors.size());
    for (const LlamaHfTensor& t : tensors)
        out.push_back({t.name, t.shape,
                       std::span<const float>(flat + layout.flatOffset(t.tensor, t.layer),
                                              static_cast<std::size_t>(t.elements)),
                       dtype});
    writeSafetensors(path, out, {{"format", "pt"}});
}

} // namespace zerolab
