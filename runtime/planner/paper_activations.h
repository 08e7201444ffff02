// Activation memory of a large transformer by Korthikanti et al. 2022, "Reducing
// Activation Recomputation in Large Transformer Models" (arXiv:2205.05198), section 4,
// without tensor or sequence parallelism (t = 1): per layer, in bytes, with 16-bit
// activations and dropout masks,
//   no recompute         sbh (34 + 5as/h)   (their eq. 1)
//   selective recompute  34 sbh             (the attention core recomputed: eq. 6 at t = 1)
//   full recompute       2 sbh              (only the layer's input kept)
// for s the sequence length, b the micro-batch, h the hidden size, a the heads; the
// model's L layers hold L times that. Embeddings, the output layer and the one layer
// recomputed at a time are not counted, as in the paper. The Learn view uses this for
// the models too large to run here; zerolab's own GPT-2 counts its fp32 arena exactly
// (activation_layout.h), whose selective mode recomputes layernorms and GELU instead.
#pragma once

#include "runtime/model/recompute.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace zerolab {

struct TransformerDims {
    std::string_view name; // "GPT-3 6.7B"
    double params = 0;     // psi
    int layers = 0;        // L
    int hidden = 0;        // h
    int heads = 0;         // a
    int seq_len = 0;       // s, the model's training context
};

// The sizes of the Learn view's preset buttons (GPT-2 XL, and GPT-3's table 2.1).
inline constexpr std::array<TransformerDims, 4> kPaperModels = {{
    {"GPT-2 XL 1.5B", 1.5e9, 48, 1600, 25, 1024},
    {"GPT-3 6.7B", 6.7e9, 32, 4096, 32, 2048},
    {"GPT-3 13B", 13.0e9, 40, 5140, 40, 2048},
    {"GPT-3 175B", 175.0e9, 96, 12288, 96, 2048},
}};

// The preset whose parameter count is within 1% of psi, if any.
std::optional<TransformerDims> paperModelFor(double psi);

struct PaperActivations {
    double bytes = 0;
    // The per-layer formula in the paper's symbols ("2sbh"); the Learn view writes it out
    // with the numbers plugged in, in the GUI's language.
    std::string per_layer;
};

// Bytes per rank for micro-batch b (>= 1) at the model's seq_len.
PaperActivations paperActivations(const TransformerDims& m, int micro_batch, Recompute r);

} // namespace zerolab
