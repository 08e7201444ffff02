// readInitialModel and exportModel: the weights through model_weights.h (the family's
// format), plus the config.json a Llama model's safetensors need beside them.
#include "runtime/train/model_files.h"

#include "runtime/config/hf_shape.h"
#include "runtime/engine/model_weights.h"
#include "runtime/files/replace_file.h"
#include "runtime/model/safetensors.h"

namespace zerolab {

void readInitialModel(const ModelConfig& model, const ParamLayout& layout, float* flat) {
    // The config took the shape from this file (an llm.c header, or the config.json beside
    // safetensors), so the family's format is the file's.
    readModelWeights(model.init_from, layout, flat);
}

std::optional<std::string> exportModelProblem(const ModelConfig& model, const std::string& path) {
    if (path.empty() || model.shape.family != Family::Llama)
        return std::nullopt;
    if (!(path.size() > 12 && path.ends_with(".safetensors")))
        return "--export-model " + path +
               ": a Llama-family model is written as Hugging Face safetensors with its "
               "config.json beside it; name the file *.safetensors";
    return std::nullopt;
}

std::string exportModel(const std::string& path, const TrainConfig& config,
                        const ParamLayout& layout, const float* flat) {
    // F32 whatever the precision: `flat` is the fp32 master of a bf16 run, which BF16
    // would round (llm.c's export keeps fp32 too).
    writeModelWeights(path, layout, flat);
    if (config.model.shape.family != Family::Llama)
        return path;
    const nlohmann::json hf = hfConfigJson(config.model.shape);
    const std::string beside = hfConfigBeside(path);
    if (const std::string why = replaceFile(beside, hf.dump(2) + "\n"); !why.empty())
        throw SafetensorsError(beside + ": " + why);
    return path + " and " + beside;
}

} // namespace zerolab
