// A model family: what a shape of it means. Everything outside a family's own folder
// (the config, the planner, the engine, the step-time model, checkpoints, the GUI)
// reads a model through this description, never by asking which family it is. The
// registry is families.def; a family's folder defines its k<Enum>Family.
#pragma once

#include "runtime/model/activation_layout.h"
#include "runtime/model/kernel_ops.h"
#include "runtime/model/model_flops.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"
#include "runtime/model/recompute.h"
#include "runtime/model/unit_calls.h"
#include "runtime/text/message.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace zerolab {

// One line of the activation arena written as its closed form, for zerolab-plan --explain
// and Learn's "How it adds up" (context "PlanExplain"). With `bytes`, the line's template
// takes them, formatted by the reader, as its last placeholder.
struct ActivationTerm {
    Message text;
    std::optional<double> bytes;
};

struct ModelFamily {
    Family id = Family::Gpt2;
    std::string_view name;                // "gpt2": the config's and the store's name
    std::string_view label;               // "GPT-2 (llm.c)": for people
    std::span<const ModelPreset> presets; // its model.preset names
    // Its parameter tensors, in its file order (param_layout.h).
    std::vector<TensorSpec> (*tensors)(const ModelShape&) = nullptr;
    // The activation arena's bytes (activation_layout.h), exactly what its network counts.
    ActivationFootprint (*activations)(const ModelShape&, int B, int T, Recompute) = nullptr;
    // The same arena as closed forms in s, b, h, heads, ... with the numbers plugged in:
    // the symbols first, then what is kept per layer and once under `recompute`.
    std::vector<ActivationTerm> (*activation_terms)(const ModelShape&, int B, int T,
                                                    Recompute) = nullptr;
    // Its network's calls to the engine for one micro-batch (unit_calls.h).
    std::vector<UnitCall> (*unit_calls)(const ParamLayout&, Recompute) = nullptr;
    // FLOPs (model_flops.h).
    double (*model_flops_per_token)(const ModelShape&, int T) = nullptr;
    double (*hardware_flops_per_token)(const ModelShape&, int T, Recompute) = nullptr;
    std::vector<ModuleFlops> (*module_forward_flops)(const ModelShape&, int T) = nullptr;
    double (*largest_module_params)(const ModelShape&) = nullptr;
    // The kernels each piece of compute runs at micro-batch B and sequence length T, in
    // its network's order (the step-time model prices them), and the distinct matmul
    // shapes it runs (what zerolab-calibrate measures).
    std::vector<KernelOp> (*compute_ops)(ModelCompute, const ModelShape&, int B, int T,
                                         Recompute) = nullptr;
    std::vector<KernelOp> (*matmuls)(const ModelShape&, int B, int T) = nullptr;
};

// Every registered family, in families.def's order.
std::span<const ModelFamily* const> modelFamilies();
const ModelFamily& modelFamily(Family id);
inline const ModelFamily& familyOf(const ModelShape& s) {
    return modelFamily(s.family);
}
// The family named `name` ("gpt2"), or nullptr.
const ModelFamily* findModelFamily(std::string_view name);

} // namespace zerolab
