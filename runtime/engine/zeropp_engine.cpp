// ZeRO++ in the engine (zero_engine.h): the link classes' hosts on the communicator, and at
// stage 3 hpZ's group and secondary shard, qwZ's payloads (handed to ParamGather) and qgZ's
// groups and reducer, all sized by the buffer plan (zeropp_plan.h, addZeroPPBuffers).
#include "runtime/engine/zero_engine.h"

#include "runtime/engine/zeropp_reduce.h"

namespace zerolab {

void ZeroEngine::setUpZeroPP() {
    // Link classes for every stage; one host needs nothing from the communicator.
    if (m_zpp.ranks_per_host < m_world)
        m_comm.setRanksPerHost(m_zpp.ranks_per_host);
    if (m_stage != 3 || !m_zpp.any())
        return;
    Kernels& k = m_kernels;
    const std::int64_t qwzBytes =
        m_plan.qwz_embedding_payload + m_plan.gather_block_slots * m_plan.qwz_block_payload;
    m_zppPayload = LedgerBuffer<std::uint8_t>(m_ledger, k, MemCategory::CommBuffers,
                                              qwzBytes + 2 * (m_plan.qgz_hop1 + m_plan.qgz_hop2));
    ParamGather::ZeroPP z;
    z.qwz = m_zpp.qwz;
    z.payload = m_zppPayload.data();
    z.embeddingPayload = m_plan.qwz_embedding_payload;
    z.blockPayload = m_plan.qwz_block_payload;
    if (m_zpp.hpz > 1) {
        m_hpzGroup = m_comm.split(CommGroup::Within, m_zpp.hpz);
        if (bf16())
            m_secondaryH =
                LedgerBuffer<Bf16>(m_ledger, k, MemCategory::Params, m_plan.secondary_params);
        else
            m_secondaryF =
                LedgerBuffer<float>(m_ledger, k, MemCategory::Params, m_plan.secondary_params);
        z.P = m_zpp.hpz;
        z.within = m_hpzGroup.get();
        z.secondary = bf16() ? static_cast<void*>(m_secondaryH.data()) : m_secondaryF.data();
        std::int64_t acc = 0;
        for (const auto& U : m_layout.units) {
            z.secondaryOffsets.push_back(acc);
            acc += U.padded_elems / m_zpp.hpz;
        }
    }
    m_gather->setZeroPP(std::move(z));
    if (m_zpp.qgz) {
        m_qgzWithin = m_comm.split(CommGroup::Within, m_zpp.ranks_per_host);
        m_qgzAcross = m_comm.split(CommGroup::Across, m_zpp.ranks_per_host);
        m_qgz = std::make_unique<QgzReducer>(m_layout, m_zpp, m_comm, *m_qgzWithin, *m_qgzAcross,
                                             m_zppPayload.data() + qwzBytes, m_plan);
        m_notes = m_qgz->fallbacks();
    }
}

bool ZeroEngine::reduceQuantized(int u, float* slot) {
    if (!m_qgz || !m_qgz->quantized(u))
        return false;
    // One set of payloads: the unit before is through hop 2 before this one starts, which
    // leaves that hop the backward of this unit to overlap.
    for (auto& p : m_pending)
        if (p.quantized && p.slot)
            completeReduce(p);
    labelNext(u);
    PendingReduce p;
    p.handle = m_qgz->start(u, slot);
    p.slot = slot;
    p.unit = u;
    p.quantized = true;
    m_pending.push_back(std::move(p));
    if (!m_config.zero.overlap_comm)
        waitPending();
    return true;
}

void ZeroEngine::completeQuantized(PendingReduce& p) {
    m_qgz->finish(p.unit, p.slot);
    const std::int64_t S = slice(p.unit);
    if (gradsF32())
        m_kernels.axpy(m_gradsF.data() + shardOffset(p.unit), 1.0f, p.slot, S);
    else
        m_kernels.accumulate(m_gradsH.data() + shardOffset(p.unit), p.slot, S);
    p.slot = nullptr;
}

} // namespace zerolab
