// writeModelWeights and readModelWeights: the family decides the format; the formats are
// their own code (llmc_model_file.h, llama_hf_names.h).
#include "runtime/engine/model_weights.h"

#include "runtime/model/gpt2/llmc_model_file.h"
#include "runtime/model/llama/llama_hf_names.h"

namespace zerolab {

std::string modelWeightsFileName(const ModelShape& s) {
    return s.family == Family::Llama ? "model.safetensors" : "model.bin";
}

void writeModelWeights(const std::string& path, const ParamLayout& layout, const float* flat) {
    if (layout.shape.family == Family::Llama)
        writeLlamaHfWeights(path, layout, flat, SafetensorsDtype::F32);
    else
        writeLlmcModel(path, layout.shape, layout, flat);
}

void readModelWeights(const std::string& path, const ParamLayout& layout, float* flat) {
    if (layout.shape.family == Family::Llama)
        readLlamaHfWeights(SafetensorsCheckpoint(path), path, layout, flat);
    else
        readLlmcModel(path, layout, flat);
}

} // namespace zerolab
