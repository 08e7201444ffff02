// How many elements of which buffer the ZeRO engine allocates on one rank, for a
// stage, a precision and a world size: the single source of truth that both the
// engine (which allocates exactly this) and the planner (which forecasts it) use.
#pragma once

#include "runtime/config/config.h"
#include "runtime/model/param_layout.h"
#include "storage/mem_category.h"

#include <cstdint>
#include <vector>

namespace zerolab {

// Element counts. "Slots" are whole-unit buffers: the embedding unit (unit 0, the
// tied wte is needed at both ends of the model) has its own; the other units share
// block slots (two when overlap_comm lets one reduce-scatter run while backward
// fills the next).
struct EngineBufferPlan {
    int stage = 0;
    int world = 1;
    Precision precision = Precision::Fp32;
    bool grads_fp32 = true;            // fp32 gradients (fp32 training, or grad_accum_fp32)
    std::int64_t params = 0;           // param dtype: the full flat buffer, or the shard (stage 3)
    std::int64_t master_params = 0;    // fp32, bf16 only: full (stage 0) or shard
    std::int64_t grads = 0;            // grad dtype: full (stages 0-1) or shard (stages 2-3)
    std::int64_t optim_state = 0;      // fp32, each of m and v: full (stage 0) or shard
    std::int64_t embedding_slot = 0;   // padded elements of unit 0
    std::int64_t block_slot = 0;       // largest padded unit other than unit 0
    int grad_block_slots = 0;          // fp32 reduce-scatter buckets (stages 2-3)
    std::int64_t grad_staging = 0;     // fp32 gradient slots, total elements
    int gather_block_slots = 0;        // stage 3: 1, or 2 with overlap_comm (prefetch)
    std::int64_t gather = 0;           // param dtype all-gather slots (stage 3)
    std::int64_t param_upcast = 0;     // fp32 copies of bf16 params the model reads
    bool grad_staging_is_comm = false; // the staging slots are reduce-scatter buckets
    // ZeRO++ at stage 3 (zeropp_plan.h, addZeroPPBuffers): hpZ's secondary shard in the
    // param dtype (counted under params), and the quantized payloads in bytes (comm
    // buffers): qwZ's all-gather payload of the embedding slot and of each block slot,
    // qgZ's two all-to-all hops (send and receive each).
    std::int64_t secondary_params = 0;
    std::int64_t qwz_embedding_payload = 0;
    std::int64_t qwz_block_payload = 0;
    std::int64_t qgz_hop1 = 0; // bytes sent in hop 1 (and received)
    std::int64_t qgz_hop2 = 0; // bytes sent in hop 2 (and received)

    // Bytes per ledger category (activations excluded: see activation_layout.h).
    MemBreakdown bytes() const;
};

// grad_accum_fp32: bf16 training with fp32 gradients (TrainConfig::grad_accum_fp32),
// accumulated by the model straight into the full fp32 buffer at stages 0-1 (no
// staging slot), reduce-scattered in fp32 at stages 2-3.
EngineBufferPlan planEngineBuffers(const ParamLayout& layout, int world, int stage,
                                   Precision precision, bool overlap_comm,
                                   bool grad_accum_fp32 = false);

// Elements the engine's ZeRO-3 gathers all-gather in one optimizer step of
// `accumulation` micro-steps with `blockSlots` block slots (EngineBufferPlan's
// gather_block_slots): GatherSlots (step_schedule.h, the policy ParamGather carries out)
// replayed over the model's calls (model/unit_calls.h). What it comes to:
//  - the embedding keeps its own slot until the step's update: gathered once a step;
//  - one block slot: the first micro-step gathers every unit forward and all but unit
//    K backward (it is still in the slot); later micro-steps also find unit 1 there;
//  - two block slots (prefetch): backward starts with units K and K-1 in the slots, and
//    later micro-steps start with units 1 and 2.
// Tests compare it with the traffic a real run measures.
std::int64_t stage3GatherElements(const ParamLayout& layout, int blockSlots, int accumulation);
// The same schedule unit by unit: how many times each unit is all-gathered in forward
// and in backward in one optimizer step (ZeRO++'s hpZ gathers backward's on the host).
// Its cost does not grow with the accumulation count: once a micro-step starts with the
// slots as the one before it did, it and the rest repeat that one, and are counted so.
struct Stage3Gathers {
    std::vector<int> forward;
    std::vector<int> backward;
    int replayed_micro_steps = 0; // the micro-steps replayed; the others repeat one
};
Stage3Gathers stage3Gathers(const ParamLayout& layout, int blockSlots, int accumulation);

} // namespace zerolab
