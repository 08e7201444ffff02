// A deliberately plain double-precision Llama loss (Hugging Face LlamaForCausalLM's math),
// written independently of the kernels, for finite-difference gradient checks of the
// Llama network. Slow: test sizes only.
#pragma once

#include "runtime/model/llama/llama_tensors.h"
#include "runtime/model/param_layout.h"

#include <vector>

namespace zerolab::test {

// Mean cross-entropy over the B*T positions, params in double laid out as `layout` (any
// pad_multiple); inputs/targets (B,T).
double referenceLlamaLoss(const ParamLayout& layout, const std::vector<double>& params,
                          const std::vector<int>& inputs, const std::vector<int>& targets, int B,
                          int T);

} // namespace zerolab::test
