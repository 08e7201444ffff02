// Slot bookkeeping for ZeRO-3 gathers. Every rank makes the same calls in the same
// order, so every rank takes the same decisions and issues the same collectives.
#include "runtime/engine/param_gather.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace zerolab {

ParamGather::ParamGather(const ParamLayout& layout, Communicator& comm, Kernels& kernels, bool bf16,
                         int blockSlots, std::int64_t embeddingSlot, std::int64_t blockSlot,
                         std::vector<std::int64_t> shardOffsets, void* gather, float* upcast)
    : m_layout(layout), m_comm(comm), m_kernels(kernels), m_bf16(bf16), m_rank(comm.rank()),
      m_world(comm.size()), m_embeddingSlot(embeddingSlot), m_blockSlot(blockSlot),
      m_shardOffsets(std::move(shardOffsets)), m_gather(gather), m_upcast(upcast),
      m_policy(layout.unitCount(), blockSlots), m_pending(static_cast<std::size_t>(1 + blockSlots)),
      m_zppSlots(static_cast<std::size_t>(1 + blockSlots)) {}

ParamGather::~ParamGather() {
    for (auto& h : m_pending) {
        try {
            h.wait();
        } catch (...) {
            // The job is ending on an error already being reported.
        }
    }
}

char* ParamGather::slotData(int slot) const {
    const std::int64_t offset = slot == 0 ? 0 : m_embeddingSlot + (slot - 1) * m_blockSlot;
    return static_cast<char*>(m_gather) + offset * (m_bf16 ? 2 : 4);
}

// Places this rank's slice of `unit` in the slot and starts the all-gather.
void ParamGather::startGather(int slot, int unit) {
    if (m_zeropp) {
        startZeroPPGather(slot, unit);
        return;
    }
    if (m_zeropp) {
        startZeroPPGather(slot, unit);
        return;
    }
    const std::int64_t S = m_layout.units[unit].padded_elems / m_world;
    const std::size_t esz = m_bf16 ? 2 : 4;
    m_kernels.copyOnDevice(slotData(slot) + m_rank * S * esz,
                           static_cast<const char*>(m_shard) + m_shardOffsets[unit] * esz, S * esz);
    if (CommTrace* trace = m_comm.trace())
        trace->labelNext(unit);
    m_pending[slot] =
        m_comm.startAllGather(slotData(slot), S, m_bf16 ? CommDType::BF16 : CommDType::F32);
}

void ParamGather::run(const std::vector<GatherSlots::Action>& actions) {
    for (const GatherSlots::Action& a : actions) {
        if (a.kind == GatherSlots::ActionKind::Wait)
            m_pending[a.slot].wait(); // the caller's wait counts as exposed communication
        else
            startGather(a.slot, a.unit);
    }
}

const float* ParamGather::acquire(int unit) {
    const GatherSlots::Acquire a = m_policy.acquire(unit);
    if (m_bf16 && unit != 0)
        for (int s = 1; s < m_policy.slotCount(); ++s)
            if (m_policy.held(s) && s != a.slot)
                throw std::logic_error("ParamGather: two units held at once under bf16");
    run(a.before);
    if (m_zeropp) {
        m_pending[a.slot].wait(); // the caller's wait counts as exposed communication
        finishZeroPPGather(a.slot);
    }
    const float* out = reinterpret_cast<const float*>(slotData(a.slot));
    if (m_bf16) {
        float* dst = m_upcast + (unit == 0 ? 0 : m_embeddingSlot);
        m_kernels.toFloat(dst, reinterpret_cast<const Bf16*>(slotData(a.slot)),
                          m_layout.units[unit].padded_elems);
        out = dst;
    }
    run(a.after);
    return out;
}

void ParamGather::release(int unit) {
    m_policy.release(unit);
}

void ParamGather::invalidate() {
    for (auto& h : m_pending)
        h.wait();
    m_policy.invalidate();
    for (auto& z : m_zppSlots)
        z = ZeroPPSlot{};
    std::fill(m_secondaryValid.begin(), m_secondaryValid.end(), 0);
}

} // namespace zerolab
