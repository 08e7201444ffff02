// The model files a run reads and writes whole: model.init_from (an llm.c fp32 model
// file, or Hugging Face safetensors with its config.json) and --export-model (llm.c's
// format for GPT-2; safetensors and a config.json beside it for the Llama family, as
// people exchange those). The trainer calls these and nothing else for either.
#pragma once

#include "runtime/config/config.h"
#include "runtime/model/param_layout.h"

#include <optional>
#include <string>

namespace zerolab {

// Reads model.init_from into the flat buffer `flat` (layout.padded_total floats).
// Throws LlmcModelFileError or SafetensorsError naming the file (and the tensor).
void readInitialModel(const ModelConfig& model, const ParamLayout& layout, float* flat);

// Why --export-model `path` cannot hold `model`, or nullopt: a Llama model is written as
// safetensors, so its path must end in ".safetensors" (model.init_from reads it back by
// that name).
std::optional<std::string> exportModelProblem(const ModelConfig& model, const std::string& path);

// Writes the model in `flat` to `path`: GPT-2 as an llm.c fp32 model file; a Llama model
// as safetensors (F32: the fp32 values, the master copy of a bf16 run) with its
// config.json beside it (hf_shape.h, hfConfigJson). Returns what was written, for
// the run's event. Throws LlmcModelFileError or SafetensorsError.
std::string exportModel(const std::string& path, const TrainConfig& config,
                        const ParamLayout& layout, const float* flat);

} // namespace zerolab
