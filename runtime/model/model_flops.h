// FLOPs per trained token of a model, as its family counts them (family.h). Model FLOPs
// are what MFU divides by: the same whatever is recomputed, so MFU stays comparable
// across recompute modes (PaLM's definition). Hardware FLOPs add what recomputation
// executes again (HFU).
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"

#include <string_view>
#include <vector>

namespace zerolab {

// One module of the model's forward, in DeepSpeed's flops profiler's terms.
struct ModuleFlops {
    std::string_view name; // "wte", "wpe", "ln_1", "attn", "ln_2", "mlp", "ln_f", "lm_head"
    std::string_view kind; // the module's class in DeepSpeed's profile: "Embedding", ...
    int block = -1;        // the block's index, -1 outside the blocks
    double params = 0;     // parameters the module owns (lm_head: 0, tied to wte)
    double forward_flops_per_token = 0;
};

// Model FLOPs per token at sequence length T (GPT-2: 6 psi + 6 L T C).
double modelFlopsPerToken(const ModelShape& s, int T);
// Model FLOPs plus the forward the recompute mode runs again.
double hardwareFlopsPerToken(const ModelShape& s, int T, Recompute r);
// The forward's FLOPs module by module, in the model's order; three times their sum is
// modelFlopsPerToken (the flops profiler's tree, depth 1 or 3).
std::vector<ModuleFlops> moduleForwardFlops(const ModelShape& s, int T);
// DeepSpeed's largest layer (model_to_params): the most parameters one module owns.
double largestModuleParams(const ModelShape& s);

} // namespace zerolab
