// The Llama family's description (family.h). WORK IN PROGRESS: tensors and presets are
// real; the rest is being written (runtime/model/llama/).
#include "runtime/model/family.h"
#include "runtime/model/llama/llama_tensors.h"

#include <stdexcept>

namespace zerolab {

namespace {
[[noreturn]] void notYet() {
    throw std::logic_error("the Llama family's description is not written yet");
}
ActivationFootprint acts(const ModelShape&, int, int, Recompute) { notYet(); }
std::vector<UnitCall> calls(const ParamLayout&, Recompute) { notYet(); }
double mf(const ModelShape&, int) { notYet(); }
double hf(const ModelShape&, int, Recompute) { notYet(); }
std::vector<ModuleFlops> modf(const ModelShape&, int) { notYet(); }
double largest(const ModelShape&) { notYet(); }
std::vector<KernelOp> ops(ModelCompute, const ModelShape&, int, int, Recompute) { notYet(); }
std::vector<KernelOp> mms(const ModelShape&, int, int) { notYet(); }
} // namespace

extern const ModelFamily kLlamaFamily;
const ModelFamily kLlamaFamily = {
    .id = Family::Llama,
    .name = "llama",
    .label = "Llama (Hugging Face LlamaForCausalLM)",
    .presets = kLlamaPresets,
    .tensors = llamaTensors,
    .activations = acts,
    .unit_calls = calls,
    .model_flops_per_token = mf,
    .hardware_flops_per_token = hf,
    .module_forward_flops = modf,
    .largest_module_params = largest,
    .compute_ops = ops,
    .matmuls = mms,
};

} // namespace zerolab
