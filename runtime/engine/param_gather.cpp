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
      m_slots(1 + blockSlots) {}

ParamGather::~ParamGather() {
    for (auto& s : m_slots) {
        try {
            s.pending.wait();
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
    const std::int64_t S = m_layout.units[unit].padded_elems / m_world;
    const std::size_t esz = m_bf16 ? 2 : 4;
    m_kernels.copyOnDevice(slotData(slot) + m_rank * S * esz,
                           static_cast<const char*>(m_shard) + m_shardOffsets[unit] * esz, S * esz);
    m_slots[slot].unit = unit;
    if (CommTrace* trace = m_comm.trace())
        trace->labelNext(unit);
    m_slots[slot].pending =
        m_comm.startAllGather(slotData(slot), S, m_bf16 ? CommDType::BF16 : CommDType::F32);
}

void ParamGather::prefetchAfter(int unit) {
    if (m_slots.size() < 3 || unit == 0)
        return;
    const int next = m_backward ? unit - 1 : unit + 1;
    if (next < 1 || next >= m_layout.unitCount())
        return;
    for (std::size_t s = 1; s < m_slots.size(); ++s)
        if (m_slots[s].unit == next)
            return; // already there, or on its way
    for (std::size_t s = 1; s < m_slots.size(); ++s) {
        Slot& slot = m_slots[s];
        if (!slot.held && slot.unit != unit) {
            slot.pending.wait();
            startGather(static_cast<int>(s), next);
            return;
        }
    }
}

const float* ParamGather::acquire(int unit) {
    int found = -1;
    if (unit == 0) {
        found = 0;
        if (m_slots[0].held && m_slots[0].unit != 0)
            throw std::logic_error("ParamGather: embedding slot held by another unit");
        if (m_slots[0].unit != 0) {
            startGather(0, 0);
        }
    } else {
        for (std::size_t s = 1; s < m_slots.size(); ++s)
            if (m_slots[s].unit == unit)
                found = static_cast<int>(s);
        if (found < 0) {
            // A free block slot: prefer one without a prefetch in flight.
            for (std::size_t s = 1; s < m_slots.size(); ++s)
                if (!m_slots[s].held && (found < 0 || !m_slots[s].pending.valid()))
                    found = static_cast<int>(s);
            if (found < 0)
                throw std::logic_error("ParamGather: unit " + std::to_string(unit) +
                                       " requested while every block slot is held");
            m_slots[found].pending.wait();
            startGather(found, unit);
        }
        for (std::size_t s = 1; s < m_slots.size(); ++s)
            if (m_bf16 && m_slots[s].held && static_cast<int>(s) != found)
                throw std::logic_error("ParamGather: two units held at once under bf16");
    }
    Slot& slot = m_slots[found];
    slot.pending.wait(); // the caller's wait counts as exposed communication
    if (m_zeropp)
        finishZeroPPGather(found);
    slot.held = true;
    const float* out = reinterpret_cast<const float*>(slotData(found));
    if (m_bf16) {
        float* dst = m_upcast + (unit == 0 ? 0 : m_embeddingSlot);
        m_kernels.toFloat(dst, reinterpret_cast<const Bf16*>(slotData(found)),
                          m_layout.units[unit].padded_elems);
        out = dst;
    }
    prefetchAfter(unit);
    return out;
}

void ParamGather::release(int unit) {
    for (auto& s : m_slots)
        if (s.unit == unit)
            s.held = false;
}

void ParamGather::invalidate() {
    for (auto& s : m_slots) {
        s.pending.wait();
        s.unit = -1;
        s.held = false;
        s.decode = s.fillSecondary = false;
    }
    std::fill(m_secondaryValid.begin(), m_secondaryValid.end(), 0);
}

} // namespace zerolab
