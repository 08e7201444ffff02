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
    // Keep the matmul outputs, the attention probabilities and the residual stream;
    // recompute the cheap elementwise parts during backward: both layernorm outputs
    // and the GELU output (llm.c's recompute levels 1 and 2 together). Drops 6 of
    // the 16 (B,T,C)-sized tensors per layer for about 2% more step FLOPs.
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
