// Activation recomputation (model.recompute): which forward activations the model
// keeps for backward, and which it computes again there. The arena layout
// (activation_layout.h) and so the ledger, the planner and the GUI follow the mode.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace zerolab {

enum class Recompute : int {
    // Keep every per-layer activation backward reads (llm.c's -r 0).
    None = 0,
    // Selective recomputation as Korthikanti et al. 2022 mean it: keep the matmul
    // outputs (qkv, the attention output, fc) and the residual stream, but not the
    // attention scores and probabilities (B,NH,T,T): backward recomputes the attention
    // core from the kept qkv. Also recomputed, as llm.c's levels 1 and 2: both layernorm
    // outputs and the GELU output. Drops, per layer, the (B,NH,T,T) probabilities (the
    // term that grows with T^2) and 6 of the 16 (B,T,C)-sized tensors, for the attention
    // forward again (2TC FLOPs per token and layer: 1-3% of a step) and elementwise work.
    // With flash attention (ModelShape::attention) there is no T x T tensor to drop: its
    // per-row log-sum-exp is kept and only the layernorms and GELU are recomputed.
    Selective,
    // Keep only each block's output (the next block's input, (B,T,C)); backward runs
    // each block's forward again, into one block's worth of shared buffers, before
    // its backward (Chen et al. 2016; Megatron's and DeepSpeed's full checkpointing
    // with one checkpoint per block).
    Full,
};
inline constexpr std::array<std::string_view, 3> kRecomputeNames = {"none", "selective", "full"};

inline constexpr std::string_view recomputeName(Recompute r) {
    return kRecomputeNames[static_cast<std::size_t>(r)];
}
inline std::optional<Recompute> recomputeFromName(std::string_view name) {
    for (std::size_t i = 0; i < kRecomputeNames.size(); ++i)
        if (kRecomputeNames[i] == name)
            return static_cast<Recompute>(i);
    return std::nullopt;
}

} // namespace zerolab
