// A Hugging Face config.json as a Llama-family ModelShape, and back: the one mapping
// between transformers' fields and the shape (model.hf_config, model.init_from of a
// .safetensors checkpoint, zerolab-plan --hf-config, and the config.json that
// --export-model writes beside a Llama model). docs/model.md, "Hugging Face files".
#pragma once

#include "runtime/config/hf_config.h"
#include "runtime/model/model_shape.h"

#include <nlohmann/json.hpp>

#include <string>

namespace zerolab {

// The Llama shape `c` describes: its context (seq_len) is max_position_embeddings, or the
// sliding window where that is shorter (zerolab's full causal attention equals the
// window's only up to it: hfContextProblem); padded_vocab_size == vocab_size (HF does
// not pad); attention Flash (the family's kernel). Throws HfConfigError naming the file
// and the field for what a shape cannot carry: a pad_token_id (transformers keeps that
// embedding row at zero and out of the gradient, which zerolab does not do).
ModelShape hfModelShape(const HfModelConfig& c);

// readHfConfig(path) then hfModelShape. Throws HfConfigError.
ModelShape readHfModelShape(const std::string& path);

// The config.json of a Llama shape, as transformers reads it back to the same shape
// (hfModelShape(parseHfConfig(hfConfigJson(s).dump())) == s with attention Flash):
// Qwen2ForCausalLM where the shape has q/k/v biases, LlamaForCausalLM otherwise;
// max_position_embeddings is the shape's context. Requires s.family == Family::Llama.
nlohmann::json hfConfigJson(const ModelShape& s);

// `dir`/config.json: where a .safetensors checkpoint's config sits (Hugging Face's layout:
// the weights, or their index, beside config.json).
std::string hfConfigBeside(const std::string& weights_path);

// Whether model.init_from names Hugging Face weights (".safetensors", or a sharded
// checkpoint's ".json" index) rather than an llm.c model file.
bool isHfWeightsPath(const std::string& path);

} // namespace zerolab
