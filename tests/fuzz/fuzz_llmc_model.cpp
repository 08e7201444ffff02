// libFuzzer target: an llm.c model file (model.init_from, a checkpoint's model.bin): its
// header read (readLlmcModelHeader), then, for a header it accepts, every parameter
// (readLlmcModel) into a layout of that shape, as the trainer does.
#include "runtime/model/gpt2/llmc_model_file.h"
#include "tests/fuzz/fuzz_file.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("model.bin", data, size);
    try {
        const zerolab::ModelShape shape = zerolab::readLlmcModelHeader(path);
        const zerolab::ParamLayout layout = zerolab::makeParamLayout(shape, 2);
        std::vector<float> flat(static_cast<std::size_t>(layout.padded_total));
        zerolab::readLlmcModel(path, layout, flat.data());
    } catch (const zerolab::LlmcModelFileError&) {
    }
    return 0;
}
