// ZeRO-3's parameter all-gathers: each unit is gathered whole into a slot (one for
// the embedding, one or two for the other units) before the model reads it. A slot
// keeps its unit until it is needed for another one or the parameters change, so a
// unit used again before then (the tied embedding, the last layers at the turn from
// forward to backward) is not gathered twice. With two block slots the next unit's
// all-gather is started while the current one computes: forward walks units upward,
// backward downward. The policy is GatherSlots (planner/step_schedule.h), which the
// step-time model replays; this class carries out its decisions with real all-gathers.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/step_schedule.h"

#include <cstdint>
#include <vector>

namespace zerolab {

class ParamGather {
public:
    // shard: this rank's owned slices, units back to back (shardOffsets[u]); gather:
    // embedding_slot + blockSlots * block_slot elements of the param dtype; upcast
    // (bf16 only): embedding_slot + block_slot fp32 elements the model reads.
    ParamGather(const ParamLayout& layout, Communicator& comm, Kernels& kernels, bool bf16,
                int blockSlots, std::int64_t embeddingSlot, std::int64_t blockSlot,
                std::vector<std::int64_t> shardOffsets, void* gather, float* upcast);
    ~ParamGather();
    ParamGather(const ParamGather&) = delete;
    ParamGather& operator=(const ParamGather&) = delete;

    // Where the shard lives (it may move when the engine reallocates); bf16: Bf16*.
    void setShard(const void* shard) { m_shard = shard; }
    // Units the model will ask for next come upward (forward) or downward (backward).
    void setBackward(bool backward) { m_policy.setBackward(backward); }
    // The unit's full fp32 parameters, valid until release(unit). Collective.
    const float* acquire(int unit);
    void release(int unit);
    // The parameters changed: finish any prefetch and forget every slot's contents.
    void invalidate();

private:
    char* slotData(int slot) const;
    void startGather(int slot, int unit);
    void run(const std::vector<GatherSlots::Action>& actions);

    const ParamLayout& m_layout;
    Communicator& m_comm;
    Kernels& m_kernels;
    bool m_bf16;
    int m_rank;
    int m_world;
    std::int64_t m_embeddingSlot;
    std::int64_t m_blockSlot;
    std::vector<std::int64_t> m_shardOffsets;
    const void* m_shard = nullptr;
    void* m_gather;
    float* m_upcast;
    GatherSlots m_policy;
    std::vector<CommHandle> m_pending; // per slot: its all-gather in flight
};

} // namespace zerolab
