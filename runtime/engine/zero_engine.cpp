// ZeRO stages 0-3 over the Communicator. Unit u occupies [off_u, off_u + P_u) of the
// full flat buffer, P_u a multiple of N; rank r owns the slice [r*S_u, (r+1)*S_u) of
// every unit (S_u = P_u / N). Owned slices of consecutive units sit back to back in the
// shard buffers, so shard offsets are prefix sums of S_u. Every buffer is device memory
// of the Kernels; the host only computes offsets and issues ops and collectives.
#include "runtime/engine/zero_engine.h"

#include "runtime/engine/zeropp_reduce.h"
#include "runtime/planner/planner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace zerolab {

ZeroEngine::ZeroEngine(const TrainConfig& config, Communicator& comm, Kernels& kernels,
                       MemoryLedger& ledger)
    : m_config(config), m_comm(comm), m_kernels(kernels), m_ledger(ledger), m_world(comm.size()),
      m_rank(comm.rank()), m_stage(config.zero.stage), m_precision(config.precision) {
    m_layout = makeParamLayout(config.model.shape, m_world);
    m_plan = planEngineBuffers(m_layout, m_world, m_stage, m_precision, config.zero.overlap_comm,
                               config.grad_accum_fp32);
    PlanInput zin = planInputFromConfig(config);
    zin.world = m_world;
    m_zpp = zeroppOptions(zin, m_stage);
    addZeroPPBuffers(m_plan, m_layout, m_zpp);
    m_shardOffsets.resize(m_layout.units.size());
    std::int64_t acc = 0;
    for (std::size_t u = 0; u < m_layout.units.size(); ++u) {
        m_shardOffsets[u] = acc;
        acc += m_layout.units[u].padded_elems / m_world;
    }
    Kernels& k = kernels;
    if (gradsF32())
        m_gradsF = LedgerBuffer<float>(ledger, k, MemCategory::Grads, m_plan.grads);
    else
        m_gradsH = LedgerBuffer<Bf16>(ledger, k, MemCategory::Grads, m_plan.grads);
    if (bf16()) {
        m_paramsH = LedgerBuffer<Bf16>(ledger, k, MemCategory::Params, m_plan.params);
        m_master = LedgerBuffer<float>(ledger, k, MemCategory::MasterParams, m_plan.master_params);
        m_gatherH = LedgerBuffer<Bf16>(ledger, k, MemCategory::CommBuffers, m_plan.gather);
        m_upcast = LedgerBuffer<float>(ledger, k, MemCategory::Workspace, m_plan.param_upcast);
    } else {
        m_paramsF = LedgerBuffer<float>(ledger, k, MemCategory::Params, m_plan.params);
        m_gatherF = LedgerBuffer<float>(ledger, k, MemCategory::CommBuffers, m_plan.gather);
    }
    m_m = LedgerBuffer<float>(ledger, k, MemCategory::OptimM, m_plan.optim_state);
    m_v = LedgerBuffer<float>(ledger, k, MemCategory::OptimV, m_plan.optim_state);
    m_gradStaging = LedgerBuffer<float>(
        ledger, k, m_plan.grad_staging_is_comm ? MemCategory::CommBuffers : MemCategory::Workspace,
        m_plan.grad_staging);
    m_gradSlotOfUnit.assign(m_layout.units.size(), nullptr);
    if (m_stage < 2) {
        m_buckets = reduceBuckets(m_layout, m_stage, config.zero.reduce_scatter,
                                  config.zero.reduce_bucket_size);
        m_bucketOfFirstUnit.assign(m_layout.units.size(), -1);
        for (std::size_t b = 0; b < m_buckets.size(); ++b)
            m_bucketOfFirstUnit[m_buckets[b].first_unit] = static_cast<int>(b);
    }
    if (m_stage == 3) {
        m_gather = std::make_unique<ParamGather>(
            m_layout, comm, kernels, bf16(), m_plan.gather_block_slots, m_plan.embedding_slot,
            m_plan.block_slot, m_shardOffsets,
            bf16() ? static_cast<void*>(m_gatherH.data()) : m_gatherF.data(),
            bf16() ? m_upcast.data() : nullptr);
        m_gather->setShard(bf16() ? static_cast<const void*>(m_paramsH.data()) : m_paramsF.data());
    }
    setUpZeroPP();
}

ZeroEngine::~ZeroEngine() {
    for (auto& p : m_pending) {
        try {
            p.handle.wait();
        } catch (...) {
            // The job is ending on an error already being reported.
        }
    }
}

std::int64_t ZeroEngine::ownedElems() const {
    return m_plan.optim_state;
}

std::int64_t ZeroEngine::ownedOffset(int unit) const {
    return m_stage == 0 ? m_layout.units[unit].offset : shardOffset(unit);
}

std::int64_t ZeroEngine::ownedLength(int unit) const {
    return m_stage == 0 ? m_layout.units[unit].padded_elems : slice(unit);
}

std::int64_t ZeroEngine::ownedStartInUnit(int unit) const {
    return m_stage == 0 ? 0 : m_rank * slice(unit);
}

void ZeroEngine::setUnit(int u, const float* unit_full) {
    const auto& U = m_layout.units[u];
    const std::int64_t S = slice(u);
    Kernels& k = m_kernels;
    // Stages 0-2 keep the whole unit, stage 3 the owned slice.
    const std::int64_t pOff = m_stage < 3 ? U.offset : shardOffset(u);
    const float* src = m_stage < 3 ? unit_full : unit_full + m_rank * S;
    const std::int64_t n = m_stage < 3 ? U.padded_elems : S;
    if (bf16())
        k.toBf16(m_paramsH.data() + pOff, src, n);
    else
        k.copyOnDevice(m_paramsF.data() + pOff, src, n * sizeof(float));
    if (bf16())
        k.copyOnDevice(m_master.data() + ownedOffset(u), unit_full + ownedStartInUnit(u),
                       ownedLength(u) * sizeof(float));
}

LedgerBuffer<float> ZeroEngine::unitWorkspace() {
    std::int64_t largest = 0;
    for (const auto& U : m_layout.units)
        largest = std::max(largest, U.padded_elems);
    return LedgerBuffer<float>(m_ledger, m_kernels, MemCategory::Workspace, largest);
}

void ZeroEngine::initParams(std::uint64_t seed) {
    LedgerBuffer<float> unit = unitWorkspace();
    std::vector<float> host(unit.size());
    for (const auto& U : m_layout.units) {
        std::fill(host.begin(), host.begin() + U.padded_elems, 0.0f);
        initUnitParams(m_config.model.shape, U, seed, host.data());
        m_kernels.copyToDevice(unit.data(), host.data(), U.padded_elems * sizeof(float));
        setUnit(U.index, unit.data());
    }
    m_kernels.synchronize();
}

void ZeroEngine::setFullParams(const float* flat) {
    LedgerBuffer<float> unit = unitWorkspace();
    for (const auto& U : m_layout.units) {
        m_kernels.copyToDevice(unit.data(), flat + U.offset, U.padded_elems * sizeof(float));
        setUnit(U.index, unit.data());
    }
    m_kernels.synchronize();
    m_paramSlotUnit[0] = m_paramSlotUnit[1] = -1;
    if (m_gather)
        m_gather->invalidate();
}

void ZeroEngine::fullParams(float* flat) {
    LedgerBuffer<float> unit = unitWorkspace();
    for (const auto& U : m_layout.units) {
        const int u = U.index;
        if (bf16() || m_stage == 3) {
            // Owned slice from the master (bf16) or the param shard (fp32 stage 3), then gather.
            const float* src =
                bf16() ? m_master.data() + ownedOffset(u) : m_paramsF.data() + shardOffset(u);
            m_kernels.copyOnDevice(unit.data() + ownedStartInUnit(u), src,
                                   ownedLength(u) * sizeof(float));
            if (m_stage > 0)
                m_comm.allGather(unit.data(), slice(u), CommDType::F32);
            m_kernels.copyToHost(flat + U.offset, unit.data(), U.padded_elems * sizeof(float));
        } else {
            m_kernels.copyToHost(flat + U.offset, m_paramsF.data() + U.offset,
                                 U.padded_elems * sizeof(float));
        }
    }
}

float* ZeroEngine::ownedArray(OwnedState s) {
    switch (s) {
    case OwnedState::OptimM:
        return m_m.data();
    case OwnedState::OptimV:
        return m_v.data();
    case OwnedState::Master:
        if (!m_plan.master_params)
            throw std::logic_error("ZeroEngine: an fp32 run has no master copy");
        return m_master.data();
    }
    return nullptr;
}

void ZeroEngine::readOwned(OwnedState s, float* host) {
    m_kernels.copyToHost(host, ownedArray(s), ownedElems() * sizeof(float));
}

void ZeroEngine::writeOwned(OwnedState s, const float* host) {
    m_kernels.copyToDevice(ownedArray(s), host, ownedElems() * sizeof(float));
}

void ZeroEngine::beginStep() {
    waitPending();
    if (gradsF32())
        m_kernels.zero(m_gradsF.data(), m_gradsF.size());
    else
        m_kernels.zero(m_gradsH.data(), m_gradsH.size());
}

void ZeroEngine::beginMicroStep(bool last) {
    m_lastMicro = last;
    if (m_gather)
        m_gather->setBackward(false);
    std::fill(m_gradSlotOfUnit.begin(), m_gradSlotOfUnit.end(), nullptr);
    m_nextBlockSlot = 0;
}

const float* ZeroEngine::params(int u) {
    const auto& U = m_layout.units[u];
    if (m_stage == 3)
        return m_gather->acquire(u);
    if (!bf16())
        return m_paramsF.data() + U.offset;
    const int slot = u == 0 ? 0 : 1;
    const std::int64_t slotOffset = slot == 0 ? 0 : m_plan.embedding_slot;
    float* out = m_upcast.data() + slotOffset;
    if (m_paramSlotUnit[slot] == u)
        return out;
    if (m_paramSlotUnit[slot] != -1)
        throw std::logic_error("ZeroEngine: unit " + std::to_string(u) + " requested while unit " +
                               std::to_string(m_paramSlotUnit[slot]) +
                               " still holds its slot (missing release)");
    m_paramSlotUnit[slot] = u;
    // bf16, stages 0-2: an fp32 view of the replicated bf16 params.
    m_kernels.toFloat(out, m_paramsH.data() + U.offset, U.padded_elems);
    return out;
}

void ZeroEngine::release(int u) {
    if (m_gather) {
        m_gather->release(u);
        return;
    }
    const int slot = u == 0 ? 0 : 1;
    if (m_paramSlotUnit[slot] == u)
        m_paramSlotUnit[slot] = -1;
}

float* ZeroEngine::gradSlotFor(int u) {
    if (m_gradSlotOfUnit[u])
        return m_gradSlotOfUnit[u];
    const auto& U = m_layout.units[u];
    float* slot = m_gradStaging.data();
    if (u != 0) {
        slot += m_plan.embedding_slot + m_nextBlockSlot * m_plan.block_slot;
        m_nextBlockSlot = (m_nextBlockSlot + 1) % m_plan.grad_block_slots;
        for (auto& p : m_pending)
            if (p.slot == slot && p.handle.valid())
                completeReduce(p);
    }
    m_kernels.zero(slot, U.padded_elems);
    m_gradSlotOfUnit[u] = slot;
    return slot;
}

float* ZeroEngine::grads(int u) {
    if (m_gather)
        m_gather->setBackward(true); // the model asks for gradients only in backward
    if (m_stage < 2 && gradsF32())
        return m_gradsF.data() + m_layout.units[u].offset;
    return gradSlotFor(u);
}

void ZeroEngine::completeReduce(PendingReduce& p) {
    p.handle.wait();
    if (!p.slot)
        return;
    if (p.quantized) {
        completeQuantized(p);
        return;
    }
    const std::int64_t S = slice(p.unit);
    if (gradsF32())
        m_kernels.axpy(m_gradsF.data() + shardOffset(p.unit), 1.0f, p.slot + m_rank * S, S);
    else
        m_kernels.accumulate(m_gradsH.data() + shardOffset(p.unit),
                             reinterpret_cast<Bf16*>(p.slot) + m_rank * S, S);
    p.slot = nullptr;
}

void ZeroEngine::labelNext(int unit) {
    if (CommTrace* trace = m_comm.trace())
        trace->labelNext(unit);
}

void ZeroEngine::waitPending() {
    for (auto& p : m_pending)
        completeReduce(p);
    m_pending.clear();
}

void ZeroEngine::reduceFullRange(int first, int last, bool async) {
    const auto& F = m_layout.units[first];
    const auto& L = m_layout.units[last];
    void* base = gradsF32() ? static_cast<void*>(m_gradsF.data()) : m_gradsH.data();
    const std::size_t esz = commDTypeBytes(gradDType());
    auto at = [&](std::int64_t off) { return static_cast<char*>(base) + off * esz; };
    if (m_stage == 1 && m_config.zero.reduce_scatter) {
        for (int u = last; u >= first; --u) {
            labelNext(u);
            PendingReduce p;
            p.handle =
                m_comm.startReduceScatter(at(m_layout.units[u].offset), slice(u), gradDType());
            p.unit = u;
            m_pending.push_back(std::move(p));
        }
    } else {
        PendingReduce p;
        p.handle =
            m_comm.startAllReduce(at(F.offset), L.offset + L.padded_elems - F.offset, gradDType());
        p.unit = first;
        m_pending.push_back(std::move(p));
    }
    if (!async)
        waitPending();
}

void ZeroEngine::gradsReady(int u) {
    const auto& U = m_layout.units[u];
    if (m_stage >= 2) {
        float* slot = m_gradSlotOfUnit[u];
        m_gradSlotOfUnit[u] = nullptr;
        if (reduceQuantized(u, slot))
            return;
        if (!gradsF32())
            m_kernels.narrowToBf16InPlace(slot, U.padded_elems);
        labelNext(u);
        PendingReduce p;
        p.handle = m_comm.startReduceScatter(slot, slice(u), gradDType());
        p.slot = slot;
        p.unit = u;
        m_pending.push_back(std::move(p));
        if (!m_config.zero.overlap_comm)
            waitPending();
        return;
    }
    if (!gradsF32()) {
        m_kernels.accumulate(m_gradsH.data() + U.offset, m_gradSlotOfUnit[u], U.padded_elems);
        m_gradSlotOfUnit[u] = nullptr;
    }
    if (!m_lastMicro || !m_config.zero.overlap_comm)
        return;
    // Stages 0-1, accumulation boundary, overlap: units arrive U, U-1, ..., 0, so a bucket
    // is complete when its first unit is (step_schedule.h's order).
    const int bucket = m_bucketOfFirstUnit[u];
    if (bucket >= 0)
        reduceFullRange(m_buckets[bucket].first_unit, m_buckets[bucket].last_unit, true);
}

void ZeroEngine::endMicroStep() {
    if (m_stage >= 2 || !m_lastMicro) {
        waitPending();
        return;
    }
    if (m_config.zero.overlap_comm) {
        waitPending();
        return;
    }
    // No overlap: reduce everything now, in the bucket order backward would use.
    for (const ReduceBucket& b : m_buckets)
        reduceFullRange(b.first_unit, b.last_unit, false);
}

EngineStepInfo ZeroEngine::finishStep(double lr, int t) {
    waitPending();
    EngineStepInfo info;
    // Squared norm of the averaged gradient: stage 0 holds it whole on every rank;
    // otherwise each rank squares its owned slices and one double is all-reduced.
    double sq = 0;
    for (const auto& U : m_layout.units) {
        const int u = U.index;
        const std::int64_t off = m_stage >= 2 ? shardOffset(u) : U.offset + ownedStartInUnit(u);
        const std::int64_t n = ownedLength(u);
        sq += gradsF32() ? m_kernels.sumSquares(m_gradsF.data() + off, n)
                         : m_kernels.sumSquares(m_gradsH.data() + off, n);
    }
    if (m_stage > 0)
        sq = m_comm.sumDouble(sq);
    info.grad_norm = std::sqrt(sq);
    const double clip = m_config.gradient_clipping;
    if (clip > 0 && info.grad_norm > clip)
        info.clip_scale = clip / (info.grad_norm + 1e-6);

    AdamParams hp;
    hp.lr = static_cast<float>(lr);
    hp.beta1 = static_cast<float>(m_config.optimizer.beta1);
    hp.beta2 = static_cast<float>(m_config.optimizer.beta2);
    hp.eps = static_cast<float>(m_config.optimizer.eps);
    hp.weightDecay = static_cast<float>(m_config.optimizer.weight_decay);
    hp.decoupled = m_config.optimizer.decoupled_weight_decay;
    hp.step = t;
    hp.gradScale = static_cast<float>(info.clip_scale);
    for (const auto& U : m_layout.units) {
        const int u = U.index;
        const std::int64_t n = ownedLength(u);
        const std::int64_t gOff = m_stage >= 2 ? shardOffset(u) : U.offset + ownedStartInUnit(u);
        const std::int64_t pOff = m_stage == 3 ? shardOffset(u) : U.offset + ownedStartInUnit(u);
        const std::int64_t sOff = ownedOffset(u);
        if (bf16() && gradsF32())
            m_kernels.adamwMixed(m_master.data() + sOff, m_paramsH.data() + pOff,
                                 m_gradsF.data() + gOff, m_m.data() + sOff, m_v.data() + sOff, n,
                                 hp);
        else if (bf16())
            m_kernels.adamwMixed(m_master.data() + sOff, m_paramsH.data() + pOff,
                                 m_gradsH.data() + gOff, m_m.data() + sOff, m_v.data() + sOff, n,
                                 hp);
        else
            m_kernels.adamw(m_paramsF.data() + pOff, m_gradsF.data() + gOff, m_m.data() + sOff,
                            m_v.data() + sOff, n, hp);
    }
    syncParams();
    m_paramSlotUnit[0] = m_paramSlotUnit[1] = -1;
    if (m_gather)
        m_gather->invalidate();
    return info;
}

void ZeroEngine::syncParams() {
    if (m_stage == 0 || m_stage == 3)
        return;
    const CommDType dt = bf16() ? CommDType::BF16 : CommDType::F32;
    const std::size_t esz = commDTypeBytes(dt);
    char* base = bf16() ? reinterpret_cast<char*>(m_paramsH.data())
                        : reinterpret_cast<char*>(m_paramsF.data());
    std::vector<CommHandle> inflight;
    for (const auto& U : m_layout.units) {
        const std::int64_t S = slice(U.index);
        char* unit = base + U.offset * esz;
        if (m_config.zero.allgather_partitions) {
            labelNext(U.index);
            inflight.push_back(m_comm.startAllGather(unit, S, dt));
        } else {
            for (int owner = 0; owner < m_world; ++owner) {
                labelNext(U.index);
                m_comm.broadcast(unit + owner * S * esz, S, dt, owner);
            }
        }
    }
    for (auto& h : inflight)
        h.wait();
}

} // namespace zerolab
