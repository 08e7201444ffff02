// The ZeRO engine, stages 0-3 (docs/architecture.md's stage table): owns this rank's parameters,
// gradients and optimizer state in the layout of engine_buffers.h, hands the model
// fp32 views of whole units (UnitAccess), runs the gradient collectives (all-reduce
// or reduce-scatter, per bucket, overlapped with backward when overlap_comm is on),
// the sharded optimizer step with global-norm clipping, and the parameter sync.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/config/config.h"
#include "runtime/engine/param_gather.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/network.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/step_schedule.h"
#include "runtime/planner/zeropp_plan.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace zerolab {

// The owned optimizer arrays a checkpoint saves and restores.
enum class OwnedState { OptimM, OptimV, Master };

// Per-step numbers the engine reports.
struct EngineStepInfo {
    double grad_norm = 0; // global L2 norm of the averaged gradient, before clipping
    double clip_scale = 1;
};

// One instance per rank; all ranks call every method in the same order (they are
// collective). The compute thread is the only caller. Throws CommError, KernelError.
// Every buffer is device memory of `kernels`, and the communicator's collectives run on
// that memory (MPI on host memory for the CPU kernels; NCCL or host staging on a GPU).
class QgzReducer;

class ZeroEngine final : public UnitAccess {
public:
    ZeroEngine(const TrainConfig& config, Communicator& comm, Kernels& kernels,
               MemoryLedger& ledger);
    ~ZeroEngine() override;
    ZeroEngine(const ZeroEngine&) = delete;
    ZeroEngine& operator=(const ZeroEngine&) = delete;

    const ParamLayout& layout() const { return m_layout; }
    const EngineBufferPlan& buffers() const { return m_plan; }
    int stage() const { return m_stage; }
    // ZeRO++ at stage 3 (zeropp_engine.cpp): what it uses, and what it says once per run
    // (qgZ's fallbacks).
    const ZeroPPOptions& zeropp() const { return m_zpp; }
    const std::vector<std::string>& notes() const { return m_notes; }

    // The family's initialisation (initUnitParams): identical values for any N and stage.
    void initParams(std::uint64_t seed);
    // Loads parameters from a full fp32 flat HOST buffer in this engine's padded layout
    // (every rank passes the same values); the master copy (bf16) gets the fp32 values.
    void setFullParams(const float* flat);
    // Collective: the full parameters as fp32 in this engine's padded layout on every rank,
    // into a HOST buffer (the fp32 master where it exists, else the params).
    void fullParams(float* flat);

    // A step is beginStep, then per micro-step beginMicroStep / model forward+backward /
    // endMicroStep, then finishStep.
    void beginStep();
    // last: this micro-step ends the accumulation (stages 0-1 communicate only then).
    void beginMicroStep(bool last);
    void endMicroStep();
    // Global-norm clipping, the optimizer on the owned shard, the parameter sync.
    // t is the 1-based optimizer step for Adam's bias correction.
    EngineStepInfo finishStep(double lr, int t);

    // UnitAccess (for the model).
    const float* params(int unit) override;
    float* grads(int unit) override;
    void release(int unit) override;
    void gradsReady(int unit) override;

    // The owned optimizer state for checkpoints: this rank's slice of every unit, units
    // back to back (stage 0: the full buffers). Counts in elements.
    std::int64_t ownedElems() const;
    bool hasMaster() const { return m_plan.master_params > 0; }
    // Copies one owned array (ownedElems() floats) to or from HOST memory. Master exists
    // for bf16 only (std::logic_error otherwise).
    void readOwned(OwnedState s, float* host);
    void writeOwned(OwnedState s, const float* host);
    // Where unit u's owned slice starts in the owned buffers, and its length.
    std::int64_t ownedOffset(int unit) const;
    std::int64_t ownedLength(int unit) const;
    // Element offset of unit u's owned slice within the unit (rank * slice, or 0 at stage 0).
    std::int64_t ownedStartInUnit(int unit) const;

private:
    struct PendingReduce {
        CommHandle handle;
        float* slot = nullptr;
        int unit = -1;
        // qgZ: the handle is hop 2 in flight; completing it dequantizes into slot[0, S).
        bool quantized = false;
    };

    bool bf16() const { return m_precision == Precision::Bf16Mixed; }
    // fp32 gradients: fp32 training, or bf16 with data_types.grad_accum_dtype "fp32"
    // (then the buffers, the accumulation, the collectives and the norm are fp32).
    bool gradsF32() const { return m_plan.grads_fp32; }
    CommDType gradDType() const { return gradsF32() ? CommDType::F32 : CommDType::BF16; }
    std::int64_t slice(int unit) const { return m_layout.units[unit].padded_elems / m_world; }
    std::int64_t shardOffset(int unit) const { return m_shardOffsets[unit]; }
    // unit_full: the unit's whole fp32 params in device memory.
    void setUnit(int unit, const float* unit_full);
    // A transient device buffer for the largest unit (counted as workspace).
    LedgerBuffer<float> unitWorkspace();
    float* ownedArray(OwnedState s);
    float* gradSlotFor(int unit);
    // The step timeline: the next collective moves unit `unit` (CommTrace::labelNext).
    void labelNext(int unit);
    void completeReduce(PendingReduce& p);
    void waitPending();
    void reduceFullRange(int first_unit, int last_unit, bool async);
    void syncParams();
    // ZeRO++: the sub-communicators, the secondary shard and payloads, set up after the
    // stage-3 buffers; qgZ's reduction of unit u's gradient slot, false where the unit
    // falls back to the reduce-scatter.
    void setUpZeroPP();
    bool reduceQuantized(int unit, float* slot);
    void completeQuantized(PendingReduce& p);

    TrainConfig m_config;
    Communicator& m_comm;
    Kernels& m_kernels;
    MemoryLedger& m_ledger;
    int m_world = 1;
    int m_rank = 0;
    int m_stage = 0;
    Precision m_precision = Precision::Fp32;
    ParamLayout m_layout;
    EngineBufferPlan m_plan;
    std::vector<std::int64_t> m_shardOffsets;

    LedgerBuffer<float> m_paramsF; // fp32 params (full, or shard at stage 3)
    LedgerBuffer<Bf16> m_paramsH;  // bf16 params
    LedgerBuffer<float> m_master;
    LedgerBuffer<float> m_gradsF;
    LedgerBuffer<Bf16> m_gradsH;
    LedgerBuffer<float> m_m;
    LedgerBuffer<float> m_v;
    LedgerBuffer<float> m_gradStaging; // embedding slot, then block slots
    LedgerBuffer<float> m_gatherF;     // stage 3 fp32: embedding slot, then block slot
    LedgerBuffer<Bf16> m_gatherH;      // stage 3 bf16
    LedgerBuffer<float> m_upcast;      // bf16: fp32 copies the model reads

    // Stages 0-2 in bf16: which unit each fp32 upcast slot (0 = embedding, 1 = block)
    // holds, -1 when free.
    int m_paramSlotUnit[2] = {-1, -1};
    // Stage 3: the gather slots (and prefetch) the model's params() go through.
    std::unique_ptr<ParamGather> m_gather;
    // Gradient slot of each unit in this micro-step, nullptr when none.
    std::vector<float*> m_gradSlotOfUnit;
    int m_nextBlockSlot = 0;
    std::vector<PendingReduce> m_pending;
    bool m_lastMicro = true;
    // Stages 0-1: the gradient buckets (step_schedule.h) and, per unit, the bucket it
    // completes when its gradients are ready (-1: none).
    std::vector<ReduceBucket> m_buckets;
    std::vector<int> m_bucketOfFirstUnit;
    ZeroPPOptions m_zpp;
    std::vector<std::string> m_notes;
    LedgerBuffer<Bf16> m_secondaryH; // hpZ's secondary shard (params)
    LedgerBuffer<float> m_secondaryF;
    LedgerBuffer<std::uint8_t> m_zppPayload; // qwZ's slots' payloads, then qgZ's hops
    std::unique_ptr<Communicator> m_hpzGroup;
    std::unique_ptr<Communicator> m_qgzWithin;
    std::unique_ptr<Communicator> m_qgzAcross;
    std::unique_ptr<QgzReducer> m_qgz;
};

} // namespace zerolab
