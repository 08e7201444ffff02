// ZeRO++'s parameter gathers (param_gather.h, ParamGather::ZeroPP): qwZ sends each rank's
// slice as int8 blocks with one fp32 scale per block (storage/block_format.h) and every
// rank dequantizes all N slices into the slot, its own too, so that every rank computes
// with the same values while the shard it owns stays exact; hpZ's backward gathers come
// from the secondary shard that forward's gathers filled, inside the group of P ranks.
// Host memory only (the config refuses ZeRO++ off the CPU).
#include "runtime/comm/quantize.h"
#include "runtime/engine/param_gather.h"

#include <stdexcept>
#include <string>

namespace zerolab {

void ParamGather::setZeroPP(ZeroPP z) {
    m_zpp = std::move(z);
    m_zeropp = m_zpp.qwz || m_zpp.P > 1;
    m_secondaryValid.assign(static_cast<std::size_t>(m_layout.unitCount()), 0);
}

void ParamGather::startZeroPPGather(int slot, int unit) {
    const auto& U = m_layout.units[static_cast<std::size_t>(unit)];
    const std::int64_t S = U.padded_elems / m_world;
    const std::size_t esz = m_bf16 ? 2 : 4;
    const CommDType dt = m_bf16 ? CommDType::BF16 : CommDType::F32;
    ZeroPPSlot& s = m_zppSlots[static_cast<std::size_t>(slot)];
    s.unit = unit;
    s.decode = s.fillSecondary = false;
    if (CommTrace* trace = m_comm.trace())
        trace->labelNext(unit);
    if (m_zpp.P > 1 && m_backward) {
        // hpZ: the group's P slices of the secondary shard make the unit.
        if (!m_secondaryValid[static_cast<std::size_t>(unit)])
            throw std::logic_error("ParamGather: backward needs unit " + std::to_string(unit) +
                                   " before forward gathered it (hpZ's secondary is empty)");
        const std::int64_t S2 = U.padded_elems / m_zpp.P;
        const int local = m_zpp.within->rank();
        m_kernels.copyOnDevice(slotData(slot) + local * S2 * esz,
                               static_cast<const char*>(m_zpp.secondary) +
                                   m_zpp.secondaryOffsets[static_cast<std::size_t>(unit)] * esz,
                               S2 * esz);
        m_pending[static_cast<std::size_t>(slot)] =
            m_zpp.within->startAllGather(slotData(slot), S2, dt);
        return;
    }
    s.fillSecondary = m_zpp.P > 1;
    if (!m_zpp.qwz) {
        m_kernels.copyOnDevice(slotData(slot) + m_rank * S * esz,
                               static_cast<const char*>(m_shard) + m_shardOffsets[unit] * esz,
                               S * esz);
        m_pending[static_cast<std::size_t>(slot)] = m_comm.startAllGather(slotData(slot), S, dt);
        return;
    }
    const BlockFormat f = qwzFormat(S);
    const std::int64_t pb = f.payloadBytes(S);
    std::uint8_t* payload =
        m_zpp.payload + (slot == 0 ? 0 : m_zpp.embeddingPayload + (slot - 1) * m_zpp.blockPayload);
    const char* mine = static_cast<const char*>(m_shard) + m_shardOffsets[unit] * esz;
    if (m_bf16)
        quantizeBlocks(reinterpret_cast<const Bf16*>(mine), S, f, payload + m_rank * pb);
    else
        quantizeBlocks(reinterpret_cast<const float*>(mine), S, f, payload + m_rank * pb);
    s.decode = true;
    m_pending[static_cast<std::size_t>(slot)] =
        m_comm.startAllGather(payload, static_cast<std::size_t>(pb), CommDType::U8);
}

void ParamGather::finishZeroPPGather(int slot) {
    ZeroPPSlot& s = m_zppSlots[static_cast<std::size_t>(slot)];
    const auto& U = m_layout.units[static_cast<std::size_t>(s.unit)];
    const std::int64_t S = U.padded_elems / m_world;
    const std::size_t esz = m_bf16 ? 2 : 4;
    if (s.decode) {
        const BlockFormat f = qwzFormat(S);
        const std::int64_t pb = f.payloadBytes(S);
        const std::uint8_t* payload =
            m_zpp.payload +
            (slot == 0 ? 0 : m_zpp.embeddingPayload + (slot - 1) * m_zpp.blockPayload);
        for (int r = 0; r < m_world; ++r) {
            char* out = slotData(slot) + r * S * esz;
            if (m_bf16)
                dequantizeBlocks(payload + r * pb, S, f, reinterpret_cast<Bf16*>(out));
            else
                dequantizeBlocks(payload + r * pb, S, f, reinterpret_cast<float*>(out));
        }
        s.decode = false;
    }
    if (s.fillSecondary) {
        const std::int64_t S2 = U.padded_elems / m_zpp.P;
        const int local = m_zpp.within->rank();
        m_kernels.copyOnDevice(static_cast<char*>(m_zpp.secondary) +
                                   m_zpp.secondaryOffsets[static_cast<std::size_t>(s.unit)] * esz,
                               slotData(slot) + local * S2 * esz, S2 * esz);
        m_secondaryValid[static_cast<std::size_t>(s.unit)] = 1;
        s.fillSecondary = false;
    }
}

} // namespace zerolab
