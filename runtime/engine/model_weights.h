// A whole model's weights in the file format of its family: GPT-2 as an llm.c fp32 model
// file, the Llama family as Hugging Face safetensors (F32, HF's tensor names,
// llama_hf_names.h). The one place that chooses: a checkpoint's model file, model.init_from
// and --export-model all read and write through it.
#pragma once

#include "runtime/model/param_layout.h"

#include <string>

namespace zerolab {

// The model file of a checkpoint folder: "model.bin" (GPT-2) or "model.safetensors"
// (Llama family).
std::string modelWeightsFileName(const ModelShape& s);

// Writes the model in `flat` (layout.padded_total floats, fp32) to `path` in its family's
// format. Throws LlmcModelFileError or SafetensorsError.
void writeModelWeights(const std::string& path, const ParamLayout& layout, const float* flat);

// Reads `path` (for the Llama family one .safetensors file, or a sharded checkpoint's
// .json index) into `flat`, the units' padding zeroed, after checking that it holds exactly
// layout.shape's model (the attention kernel aside). Throws LlmcModelFileError or
// SafetensorsError naming the file and what differs.
void readModelWeights(const std::string& path, const ParamLayout& layout, float* flat);

} // namespace zerolab
