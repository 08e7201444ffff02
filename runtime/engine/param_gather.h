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
    void setBackward(bool backward) {
        m_policy.setBackward(backward);
        m_backward = backward;
    }
    // The unit's full fp32 parameters, valid until release(unit). Collective.
    const float* acquire(int unit);
    void release(int unit);
    // The parameters changed: finish any prefetch and forget every slot's contents.
    void invalidate();

    // ZeRO++ (zeropp_gather.cpp): qwZ all-gathers int8 blocks (payload: one region per slot,
    // embeddingPayload then blockPayload bytes each) and dequantizes them into the slot; hpZ
    // keeps each unit's slice `local` of P from forward's gather in `secondary` (units back
    // to back at secondaryOffsets) and gathers backward's inside `within`.
    struct ZeroPP {
        bool qwz = false;
        std::uint8_t* payload = nullptr;
        std::int64_t embeddingPayload = 0;
        std::int64_t blockPayload = 0;
        int P = 1;
        Communicator* within = nullptr;
        void* secondary = nullptr;
        std::vector<std::int64_t> secondaryOffsets;
    };
    void setZeroPP(ZeroPP z);

private:
    char* slotData(int slot) const;
    void startGather(int slot, int unit);
    void run(const std::vector<GatherSlots::Action>& actions);
    // ZeRO++'s gather of `unit` into `slot`, and what acquire does once it has arrived.
    struct ZeroPPSlot {
        int unit = -1;              // the unit whose gather the slot received last
        bool decode = false;        // qwZ: the payload still has to be dequantized
        bool fillSecondary = false; // hpZ: a world gather whose slice goes to the secondary
    };
    void startZeroPPGather(int slot, int unit);
    void finishZeroPPGather(int slot);

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
    bool m_backward = false;
    bool m_zeropp = false;
    ZeroPP m_zpp;
    std::vector<ZeroPPSlot> m_zppSlots; // per slot, as m_pending
    std::vector<char> m_secondaryValid; // per unit: forward's gather filled its slice
};

} // namespace zerolab
