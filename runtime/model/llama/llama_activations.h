// Where every activation buffer of the Llama network lives in its one activation arena,
// and how many bytes that arena takes. Shared by the network (which allocates exactly
// this) and the family's footprint (activation_layout.h), which the planner forecasts;
// no kernels. docs/model.md, "Llama family", has the table per tensor and recompute mode.
#pragma once

#include "runtime/model/activation_arena.h"
#include "runtime/model/activation_layout.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"

#include <cstdint>

namespace zerolab {

// The forward activations of one block that its backward reads. B, T the micro-batch,
// C = n_embd, Q = n_head * head_dim, KV = n_kv_head * head_dim, F = ffn_dim, NH heads.
// Attention is always flash (FlashAttention-2): what it keeps is its output and one
// log-sum-exp per query row and head, never the (T,T) scores.
struct LlamaLayerActivations {
    ArenaSlot ln1_rstd;  // (B,T)      input_layernorm's 1/rms
    ArenaSlot ln1;       // (B,T,C)    input_layernorm's output: q/k/v projections' input
    ArenaSlot q;         // (B,T,Q)    after RoPE
    ArenaSlot k;         // (B,T,KV)   after RoPE
    ArenaSlot v;         // (B,T,KV)
    ArenaSlot atty;      // (B,T,Q)    attention output: o_proj's input
    ArenaSlot lse;       // (B,NH,T)   flash attention's log-sum-exp
    ArenaSlot residual2; // (B,T,C)    after the attention residual
    ArenaSlot ln2_rstd;  // (B,T)      post_attention_layernorm's 1/rms
    ArenaSlot ln2;       // (B,T,C)    its output: gate/up projections' input
    ArenaSlot gate;      // (B,T,F)    gate_proj's output
    ArenaSlot up;        // (B,T,F)    up_proj's output
    ArenaSlot swiglu;    // (B,T,F)    silu(gate) * up: down_proj's input
    ArenaSlot residual3; // (B,T,C)    the block's output, kept in every mode
};

// The whole arena, offsets in floats from its start; every buffer starts on a 64-byte
// boundary and the padding is counted. The layer-independent buffers come first, then
// n_layer blocks of layer_stride floats.
//
// Once per model: the tokens, the RoPE cos/sin table (T * head_dim floats,
// ropeTableFloats of kernels/rope.h: one table for q and k of every layer, uploaded once
// at construction), the embedding output, the final norm's output and 1/rms, logits,
// probs, losses. Shared scratch, one copy for all layers (backward runs one block at a
// time, as GPT-2's arena does):
//   proj      (B,T,C)  forward: o_proj's, then down_proj's output; backward: d of each
//                      norm's output.
//   dresidual (B,T,C)  the residual stream's gradient, into which both residual
//                      branches' matmul backwards and both norms' backwards accumulate.
//   dwide_a   (B,T,max(F, Q+2KV))  d swiglu; later in the block d q | d k | d v.
//   dwide_b   (B,T,max(F, Q))      d gate; later d atty.
//   dwide_c   (B,T,F)              d up.
//   delta     (B,NH,T)             flash attention backward's scratch.
//   logits as dlogits, losses as dlosses.
//
// Recomputation (recompute.h) moves slots out of the layer blocks:
//   selective  ln1 and ln2 live in one shared (B,T,C) buffer each (recompute_ln1,
//              recompute_ln2); swiglu lives in dwide_b. Their norms' rstd stay per layer
//              (the recompute rewrites them with the same values).
//   full       every slot but residual3 lives once, in a shared block laid out like a
//              layer block (recompute_block); swiglu lives in dwide_b.
// swiglu can share dwide_b because backward reads it first (down_proj's backward input)
// and only then zeroes dwide_b to hold d gate; forward never uses dwide_b otherwise.
struct LlamaActivationLayout {
    int B = 0;
    int T = 0;
    Recompute recompute = Recompute::None;
    std::int64_t layers = 0;       // start of layer 0's block
    std::int64_t layer_stride = 0; // floats per layer block
    LlamaLayerActivations layer{};
    std::int64_t tokens = 0;      // (2,B,T) int32: the micro-batch's inputs, then its targets
    std::int64_t rope = 0;        // (T, head_dim): cos then sin of each position's angles
    std::int64_t rope_floats = 0; // T * head_dim
    std::int64_t encoded = 0;     // (B,T,C)
    std::int64_t proj = 0;        // (B,T,C)
    std::int64_t lnf = 0;         // (B,T,C)
    std::int64_t lnf_rstd = 0;    // (B,T)
    std::int64_t logits = 0;      // (B,T,Vp)
    std::int64_t probs = 0;       // (B,T,Vp)
    std::int64_t losses = 0;      // (B,T)
    std::int64_t dresidual = 0;
    std::int64_t dwide_a = 0;
    std::int64_t dwide_b = 0;
    std::int64_t dwide_c = 0;
    std::int64_t delta = 0;
    std::int64_t recompute_ln1 = -1;   // selective: (B,T,C); -1 otherwise
    std::int64_t recompute_ln2 = -1;   // selective: (B,T,C); -1 otherwise
    std::int64_t recompute_block = -1; // full: the shared layer block; -1 otherwise
    std::int64_t other_floats = 0;     // everything before the layer blocks
    std::int64_t total_floats = 0;
};

// Throws std::invalid_argument when the shape is no Llama shape it can run (attention
// Standard: the family runs flash attention only; n_kv_head not dividing n_head; an odd or
// non-positive head_dim; ffn_dim < 1), when B < 1, T < 1, T > shape.seq_len, or the arena
// would exceed kMaxActivationFloats (sizes computed without overflow). Each message names
// the value.
LlamaActivationLayout makeLlamaActivationLayout(const ModelShape& shape, int B, int T,
                                                Recompute recompute = Recompute::None);

// The Llama family's footprint (activation_layout.h): makeLlamaActivationLayout's bytes.
ActivationFootprint llamaActivationFootprint(const ModelShape& shape, int B, int T,
                                             Recompute recompute);

} // namespace zerolab
