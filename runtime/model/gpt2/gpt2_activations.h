// Where every activation buffer of the GPT-2 model lives in its one activation
// arena, and how many bytes that arena takes. Shared by the model (which allocates
// exactly this) and the family's footprint (activation_layout.h), which the planner
// forecasts; no MPI, no kernels.
#pragma once

#include "runtime/model/activation_layout.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"

#include <cstdint>

namespace zerolab {

// Where one per-layer forward activation lives. Kept (per_layer): in each layer's
// block, at `offset` floats from the block's start. Recomputed: in one buffer shared
// by all layers, at `offset` floats from the arena's start, which holds the current
// layer's values only: forward writes it and backward computes it again before use.
// Absent (offset -1, not per layer): the attention kernel has no such tensor.
struct ActivationSlot {
    std::int64_t offset = 0;
    bool per_layer = true;
    bool present() const { return per_layer || offset >= 0; }
};
inline constexpr ActivationSlot kAbsentSlot{-1, false};

// The forward activations of one layer that backward reads (llm.c's per-layer
// ActivationTensors minus preatt, attproj and fcproj, which backward never reads:
// those live once, as shared scratch). B, T the micro-batch, C channels, NH heads.
// The attention kernel (ModelShape::attention) decides between att and lse: Standard
// keeps att, Flash keeps lse instead (its backward recomputes the probabilities tile by
// tile from q, k and lse); the other slot is kAbsentSlot.
struct Gpt2LayerActivations {
    ActivationSlot ln1;       // (B,T,C)
    ActivationSlot ln1_mean;  // (B,T)
    ActivationSlot ln1_rstd;  // (B,T)
    ActivationSlot qkv;       // (B,T,3C)
    ActivationSlot atty;      // (B,T,C)
    ActivationSlot att;       // (B,NH,T,T): Standard
    ActivationSlot lse;       // (B,NH,T): Flash, each query row's log-sum-exp
    ActivationSlot residual2; // (B,T,C)
    ActivationSlot ln2;       // (B,T,C)
    ActivationSlot ln2_mean;  // (B,T)
    ActivationSlot ln2_rstd;  // (B,T)
    ActivationSlot fch;       // (B,T,4C)
    ActivationSlot fch_gelu;  // (B,T,4C)
    ActivationSlot residual3; // (B,T,C): kept in every mode (the next block's input)
};

// The whole arena, offsets in floats from its start. Every buffer starts on a
// 64-byte boundary (16 floats), and that padding is part of the byte count. The
// layer-independent buffers come first, then n_layer blocks of layer_stride floats.
//
// Shared forward scratch (one copy, not per layer, since backward never reads it):
//   preatt (B,NH,T,T) the attention scores (Standard only);  proj (B,T,C) attproj,
//   then fcproj.
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
//   datt      (B,NH,T,T) and preatt as dpreatt: the attention backward's scratch
//             (Standard); Flash needs only delta (B,NH,T), D = rowsum(dO * O).
//   logits    as dlogits; losses as dlosses (the loss is known once forward is done).
//
// Recomputation (recompute.h) moves slots out of the layer blocks:
//   selective  ln1 and ln2 live in one shared (B,T,C) buffer each (recompute_ln1,
//              recompute_ln2); fch_gelu lives in dwide_b; with Standard attention att
//              lives in one shared (B,NH,T,T) buffer (recompute_att), which backward
//              fills again from the kept qkv (Flash keeps its lse per layer: B,NH,T).
//   full       every slot but residual3 lives once, in a shared block laid out like a
//              layer block (recompute_block); fch_gelu lives in dwide_b.
// fch_gelu can share dwide_b because backward reads it first (the fcproj backward's
// input) and only then zeroes dwide_b to hold d fch; forward never uses dwide_b.
struct Gpt2ActivationLayout {
    int B = 0;
    int T = 0;
    Recompute recompute = Recompute::None;
    AttentionKernel attention = AttentionKernel::Standard;
    std::int64_t layers = 0;       // start of layer 0's block
    std::int64_t layer_stride = 0; // floats per layer block
    Gpt2LayerActivations layer{};
    std::int64_t tokens = 0;   // (2,B,T) int32: the micro-batch's inputs, then its targets
    std::int64_t encoded = 0;  // (B,T,C)
    std::int64_t preatt = -1;  // (B,NH,T,T): Standard; -1 with Flash
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
    std::int64_t datt = -1;            // (B,NH,T,T): Standard; -1 with Flash
    std::int64_t delta = -1;           // (B,NH,T): Flash; -1 with Standard
    std::int64_t recompute_ln1 = -1;   // selective: (B,T,C); -1 otherwise
    std::int64_t recompute_ln2 = -1;   // selective: (B,T,C); -1 otherwise
    std::int64_t recompute_att = -1;   // selective with Standard: (B,NH,T,T); -1 otherwise
    std::int64_t recompute_block = -1; // full: the shared layer block; -1 otherwise
    std::int64_t other_floats = 0;     // everything before the layer blocks
    std::int64_t total_floats = 0;
};

// Throws std::invalid_argument when B < 1, T < 1, T > shape.seq_len, the shape is empty,
// or the arena would exceed kMaxActivationFloats (sizes computed without overflow).
Gpt2ActivationLayout makeGpt2ActivationLayout(const ModelShape& shape, int B, int T,
                                              Recompute recompute = Recompute::None);

// The GPT-2 family's footprint (activation_layout.h): makeGpt2ActivationLayout's bytes.
ActivationFootprint gpt2ActivationFootprint(const ModelShape& shape, int B, int T,
                                            Recompute recompute);

} // namespace zerolab
