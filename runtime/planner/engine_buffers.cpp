// Buffer sizes of the ZeRO engine; see engine_buffers.h and docs/architecture.md's stage table.
#include "runtime/planner/engine_buffers.h"

#include "runtime/model/unit_calls.h"
#include "runtime/planner/step_schedule.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace zerolab {

EngineBufferPlan planEngineBuffers(const ParamLayout& layout, int world, int stage,
                                   Precision precision, bool overlap_comm, bool grad_accum_fp32) {
    if (world < 1 || layout.pad_multiple % world != 0)
        throw std::invalid_argument("planEngineBuffers: layout padded to " +
                                    std::to_string(layout.pad_multiple) +
                                    " does not split over world " + std::to_string(world));
    if (stage < 0 || stage > 3)
        throw std::invalid_argument("planEngineBuffers: stage must be 0-3");
    EngineBufferPlan p;
    p.stage = stage;
    p.world = world;
    p.precision = precision;
    const std::int64_t full = layout.padded_total;
    const std::int64_t shard = full / world;
    const bool bf16 = precision == Precision::Bf16Mixed;
    p.grads_fp32 = !bf16 || grad_accum_fp32;

    p.params = stage == 3 ? shard : full;
    p.master_params = bf16 ? (stage == 0 ? full : shard) : 0;
    p.grads = stage >= 2 ? shard : full;
    p.optim_state = stage == 0 ? full : shard;

    p.embedding_slot = layout.units.front().padded_elems;
    for (std::size_t u = 1; u < layout.units.size(); ++u)
        p.block_slot = std::max(p.block_slot, layout.units[u].padded_elems);

    // Gradients the model writes in fp32 need a staging slot unless they can land in
    // an fp32 full gradient buffer directly (fp32 gradients, stages 0-1).
    if (stage >= 2) {
        p.grad_block_slots = overlap_comm ? 2 : 1;
        p.grad_staging_is_comm = true;
    } else if (!p.grads_fp32) {
        p.grad_block_slots = 1;
    }
    if (p.grad_block_slots > 0)
        p.grad_staging = p.embedding_slot + p.grad_block_slots * p.block_slot;
    // ZeRO-3 gathers each unit whole: the embedding slot plus a block slot, and with
    // overlap_comm a second one into which the next unit is prefetched (param_gather.h).
    if (stage == 3) {
        p.gather_block_slots = overlap_comm ? 2 : 1;
        p.gather = p.embedding_slot + p.gather_block_slots * p.block_slot;
    }
    if (bf16)
        p.param_upcast = p.embedding_slot + p.block_slot;
    return p;
}

MemBreakdown EngineBufferPlan::bytes() const {
    const long long pb = precision == Precision::Bf16Mixed ? 2 : 4;
    MemBreakdown b;
    b[MemCategory::Params] = (params + secondary_params) * pb;
    b[MemCategory::MasterParams] = master_params * 4;
    b[MemCategory::Grads] = grads * (grads_fp32 ? 4 : pb);
    b[MemCategory::OptimM] = optim_state * 4;
    b[MemCategory::OptimV] = optim_state * 4;
    b[MemCategory::CommBuffers] = gather * pb + (grad_staging_is_comm ? grad_staging * 4 : 0) +
                                  qwz_embedding_payload + gather_block_slots * qwz_block_payload +
                                  2 * (qgz_hop1 + qgz_hop2);
    b[MemCategory::Workspace] = param_upcast * 4 + (grad_staging_is_comm ? 0 : grad_staging * 4);
    return b;
}

// One replay of GatherSlots (the policy ParamGather carries out) over the model's calls:
// each all-gather counted for its unit, in forward or in backward as the engine starts it.
Stage3Gathers stage3Gathers(const ParamLayout& layout, int blockSlots, int accumulation) {
    const std::size_t units = static_cast<std::size_t>(layout.unitCount());
    Stage3Gathers g;
    g.forward.assign(units, 0);
    g.backward.assign(units, 0);
    GatherSlots slots(layout.unitCount(), blockSlots);
    const std::vector<UnitCall> calls = modelUnitCalls(layout, Recompute::None);
    std::optional<Stage3Gathers> before; // the counts where the micro-step before began
    std::optional<GatherSlots> slotsBefore;
    for (int micro = 0; micro < accumulation; ++micro) {
        if (slotsBefore && *slotsBefore == slots) {
            // This micro-step starts as the one before did: it and the rest repeat it.
            const long long left = accumulation - micro;
            for (std::size_t u = 0; u < units; ++u) {
                g.forward[u] += static_cast<int>(left * (g.forward[u] - before->forward[u]));
                g.backward[u] += static_cast<int>(left * (g.backward[u] - before->backward[u]));
            }
            break;
        }
        before = g;
        slotsBefore = slots;
        ++g.replayed_micro_steps;
        bool backward = false;
        slots.setBackward(false);
        for (const UnitCall& c : calls) {
            if (c.kind == UnitCallKind::Grads && !backward) {
                backward = true;
                slots.setBackward(true);
            }
            if (c.kind == UnitCallKind::Release)
                slots.release(c.unit);
            if (c.kind != UnitCallKind::Params)
                continue;
            const GatherSlots::Acquire a = slots.acquire(c.unit);
            for (const auto* actions : {&a.before, &a.after})
                for (const GatherSlots::Action& x : *actions)
                    if (x.kind == GatherSlots::ActionKind::Gather)
                        ++(backward ? g.backward : g.forward)[static_cast<std::size_t>(x.unit)];
        }
    }
    return g;
}

std::int64_t stage3GatherElements(const ParamLayout& layout, int blockSlots, int accumulation) {
    const Stage3Gathers g = stage3Gathers(layout, blockSlots, accumulation);
    std::int64_t all = 0;
    for (const auto& U : layout.units)
        all += (g.forward[static_cast<std::size_t>(U.index)] +
                g.backward[static_cast<std::size_t>(U.index)]) *
               U.padded_elems;
    return all;
}

} // namespace zerolab
