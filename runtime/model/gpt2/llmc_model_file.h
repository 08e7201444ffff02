// llm.c model files (fp32, version 3): the checkpoint format of llm.c's
// train_gpt2.c, imported through model.init_from and written by --export-model.
// Header: 256 int32 {20240326, 3, maxT, V, L, NH, C, Vp, 0...}; then every
// parameter as fp32 in llm.c's tensor order (wte, wpe, ln1w of all layers, ...).
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"

#include <stdexcept>
#include <string>

namespace zerolab {

inline constexpr int kLlmcModelMagic = 20240326;
inline constexpr int kLlmcModelVersionFp32 = 3;
inline constexpr int kLlmcHeaderInts = 256;

// The one exception of this file: cannot open/read/write, not a regular file (a FIFO
// is refused without waiting for a writer), bad magic, unsupported version (llm.c's bf16
// version 5 included), a file whose length is not exactly what its header's shape
// needs (truncated or longer), or a shape that is not the expected one. The message
// starts with the file's path.
class LlmcModelFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The shape in a model file's header: magic and version checked, sizes positive, psi
// within kMaxParamCount, and the file exactly header + psi floats long. Nothing is
// allocated from the header's sizes before that.
ModelShape readLlmcModelHeader(const std::string& path);

// Reads every parameter into `flat` (host, layout.padded_total floats), mapping llm.c's
// tensor order onto the unit layout; the units' padding is set to 0. The header's shape
// must equal layout.shape and the file's size must be exactly header + psi floats.
void readLlmcModel(const std::string& path, const ParamLayout& layout, float* flat);

// Writes `flat` (host, laid out as `layout`, whose shape must be `shape`) as an llm.c
// fp32 model file. writeLlmcModel then readLlmcModel reproduces `flat` bit for bit.
void writeLlmcModel(const std::string& path, const ModelShape& shape, const ParamLayout& layout,
                    const float* flat);

} // namespace zerolab
