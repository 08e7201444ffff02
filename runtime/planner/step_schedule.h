// The engine's communication schedule where the engine and the step-time model must agree
// on it, as the one code both call (as engine_buffers.h is for memory): the gradient
// buckets of stages 0-1 in the order backward fills them, and ZeRO-3's gather-slot policy
// (which unit each all-gather brings into which slot, what is waited for, what is
// prefetched). ZeroEngine and ParamGather execute these decisions with real collectives;
// the step-time model (step_time.h) and stage3GatherElements replay them. Pure: no MPI.
#pragma once

#include "runtime/model/param_layout.h"

#include <cstdint>
#include <vector>

namespace zerolab {

// Units first_unit..last_unit (contiguous in the flat buffer) reduced together.
struct ReduceBucket {
    int first_unit = 0;
    int last_unit = 0;
    bool operator==(const ReduceBucket&) const = default;
};

// Stages 0-1: the gradient buckets at the accumulation boundary, in the order backward
// completes them (units arrive U, U-1, ..., 0): a bucket closes once it holds at least
// `bucket_elements` elements (padded, contiguous from its first unit to its last), or at
// every unit at stage 1 with reduce_scatter (each unit is reduce-scattered on its own);
// the last bucket holds what is left. Stage 0 and stage 1 without reduce_scatter
// all-reduce each bucket's range; stage 1 with it reduce-scatters its unit.
std::vector<ReduceBucket> reduceBuckets(const ParamLayout& layout, int stage, bool reduce_scatter,
                                        std::int64_t bucket_elements);

// ZeRO-3's gather slots (engine/param_gather.h): slot 0 is the embedding's, slots
// 1..blockSlots the other units'. A slot keeps its unit until it is needed for another one
// or invalidate(); with two block slots the next unit (upward in forward, downward in
// backward) is prefetched after each acquire.
class GatherSlots {
public:
    enum class ActionKind {
        Wait,  // wait for the slot's all-gather in flight (if any)
        Gather // place the rank's slice in the slot and start the unit's all-gather
    };
    struct Action {
        ActionKind kind = ActionKind::Wait;
        int slot = 0;
        int unit = -1; // Gather: the unit
        bool operator==(const Action&) const = default;
    };
    // What acquire(unit) does: `before` in order (its last action waits for the slot the
    // unit is read from), then the unit is read from `slot`, then `after` (a prefetch).
    struct Acquire {
        int slot = 0;
        std::vector<Action> before;
        std::vector<Action> after;
    };

    GatherSlots(int unitCount, int blockSlots);

    // Units the model asks for next come upward (forward) or downward (backward).
    void setBackward(bool backward) { m_backward = backward; }
    // Throws std::logic_error where the model breaks the slot discipline (a unit asked for
    // while every block slot is held; the embedding slot held by another unit).
    Acquire acquire(int unit);
    void release(int unit);
    // The parameters changed: every slot's all-gather is waited for and its contents forgotten.
    void invalidate();

    int slotCount() const { return static_cast<int>(m_slots.size()); }
    int unitIn(int slot) const { return m_slots[static_cast<std::size_t>(slot)].unit; }
    bool held(int slot) const { return m_slots[static_cast<std::size_t>(slot)].held; }
    // Same units, holds and all-gathers in flight: the same answers to the same calls.
    bool operator==(const GatherSlots&) const = default;

private:
    struct Slot {
        int unit = -1;
        bool held = false;
        bool pending = false; // an all-gather in flight not yet waited for
        bool operator==(const Slot&) const = default;
    };
    void wait(int slot, std::vector<Action>& out);
    void gather(int slot, int unit, std::vector<Action>& out);
    void prefetchAfter(int unit, std::vector<Action>& out);

    int m_unitCount = 0;
    bool m_backward = false;
    std::vector<Slot> m_slots;
};

} // namespace zerolab
