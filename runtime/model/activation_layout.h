// Where every activation buffer of the GPT-2 model lives in its one activation
// arena, and how many bytes that arena takes. Shared by the model (which allocates
// exactly this) and the planner (which forecasts it); no MPI, no kernels.
#pragma once

#include "runtime/model/model_shape.h"

#include <cstdint>

namespace zerolab {

// Offsets in floats, relative to the start of one layer's block, of the forward
// activations kept per layer for the backward (llm.c's per-layer ActivationTensors
// minus preatt, attproj and fcproj, which backward never reads: those live once, as
// shared scratch). B, T the micro-batch, C channels, NH heads.
struct LayerActivationOffsets {
    std::int64_t ln1;       // (B,T,C)
    std::int64_t ln1_mean;  // (B,T)
    std::int64_t ln1_rstd;  // (B,T)
    std::int64_t qkv;       // (B,T,3C)
    std::int64_t atty;      // (B,T,C)
    std::int64_t att;       // (B,NH,T,T)
    std::int64_t residual2; // (B,T,C)
    std::int64_t ln2;       // (B,T,C)
    std::int64_t ln2_mean;  // (B,T)
    std::int64_t ln2_rstd;  // (B,T)
    std::int64_t fch;       // (B,T,4C)
    std::int64_t fch_gelu;  // (B,T,4C)
    std::int64_t residual3; // (B,T,C)
};

// The whole arena, offsets in floats from its start. Every buffer starts on a
// 64-byte boundary (16 floats), and that padding is part of the byte count. The
// layer-independent buffers come first, then n_layer blocks of layer_stride floats.
//
// Shared forward scratch (one copy, not per layer, since backward never reads it):
//   preatt (B,NH,T,T) the attention scores;  proj (B,T,C) attproj, then fcproj.
// Gradients: llm.c keeps a full per-layer copy of the activations for their
// gradients. Backward runs one layer at a time, so we keep one set of gradient
// buffers shared by all layers instead, which makes the gradient part independent
// of L, and reuse forward buffers that are dead once forward is done:
//   dresidual (B,T,C)  the residual stream's gradient; it is passed straight as the
//                      output gradient of both projections and the layernorm
//                      backwards accumulate into it, so llm.c's residual_backward
//                      copies disappear.
//   proj      (B,T,C)  as dln: the output gradient of lnf, then ln2, ln1 of each layer.
//   dwide_a   (B,T,4C) d fch_gelu; later in the same layer d qkv (B,T,3C).
//   dwide_b   (B,T,4C) d fch;      later in the same layer d atty (B,T,C).
//   datt      (B,NH,T,T) and preatt as dpreatt: the attention backward's scratch.
//   logits    as dlogits; losses as dlosses (the loss is known once forward is done).
struct ActivationLayout {
    int B = 0;
    int T = 0;
    std::int64_t layers = 0;       // start of layer 0's block
    std::int64_t layer_stride = 0; // floats per layer block
    LayerActivationOffsets layer{};
    std::int64_t tokens = 0;   // (2,B,T) int32: the micro-batch's inputs, then its targets
    std::int64_t encoded = 0;  // (B,T,C)
    std::int64_t preatt = 0;   // (B,NH,T,T)
    std::int64_t proj = 0;     // (B,T,C)
    std::int64_t lnf = 0;      // (B,T,C)
    std::int64_t lnf_mean = 0; // (B,T)
    std::int64_t lnf_rstd = 0; // (B,T)
    std::int64_t logits = 0;   // (B,T,Vp)
    std::int64_t probs = 0;    // (B,T,Vp)
    std::int64_t losses = 0;   // (B,T)
    std::int64_t dresidual = 0;
    std::int64_t dwide_a = 0;
    std::int64_t dwide_b = 0;
    std::int64_t datt = 0;
    std::int64_t other_floats = 0; // everything before the layer blocks
    std::int64_t total_floats = 0;
};

// Throws std::invalid_argument when B < 1, T < 1, T > shape.seq_len or the shape is empty.
ActivationLayout makeActivationLayout(const ModelShape& shape, int B, int T);

// Bytes of the activation arena: per_layer_bytes for each transformer block plus
// other_bytes (tokens, embedding output, shared scratch, final layernorm, logits,
// probs, losses and the gradient buffers). Exactly what Gpt2 counts under
// MemCategory::Activations.
struct ActivationFootprint {
    long long per_layer_bytes = 0;
    long long other_bytes = 0;
    long long total(int L) const { return per_layer_bytes * L + other_bytes; }
};

ActivationFootprint activationFootprint(const ModelShape& shape, int B, int T);

} // namespace zerolab
