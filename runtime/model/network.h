// A model's network, whatever its family: forward and backward of one micro-batch on the
// Kernels seam, asking the engine for each gather unit's parameters and gradients. It owns
// its activations; the engine owns parameters and grads. Made by makeNetwork from the
// shape's family (families.def), so that the engine, the trainer and zerolab-calibrate
// never name a family.
#pragma once

#include "kernels/kernels.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"
#include "runtime/model/recompute.h"

#include <cstdint>
#include <memory>

namespace zerolab {

// The engine decides where a unit's parameters and gradients live (replicated buffer,
// gathered temporary for ZeRO-3, fp32 upcast of bf16); the model only asks. Units are
// those of ParamLayout; pointers are Kernels device pointers laid out as the unit's
// UnitLayout (tensor_offsets). Called from the model's one thread.
class UnitAccess {
public:
    virtual ~UnitAccess() = default;
    // The unit's full fp32 params, valid until release(unit).
    virtual const float* params(int unit) = 0;
    // The unit's full fp32 grad buffer; backward ACCUMULATES (+=) into it.
    virtual float* grads(int unit) = 0;
    // The model no longer needs this unit's params now.
    virtual void release(int unit) {}
    // This unit's grads are complete for this micro-batch.
    virtual void gradsReady(int unit) {}
    // For the step timeline (docs/metrics.md): the model is about to recompute `unit`'s
    // forward inside backward (model.recompute). Call it after params(unit) has returned
    // and before grads(unit), right before the recompute; the recompute lasts until the
    // model's next params, grads, gradsReady or recomputing call. The engine ignores it.
    virtual void recomputing(int unit) {}
};

// One micro-batch at a time; not thread-safe. The calls a network makes to its
// UnitAccess are its family's unit calls (unit_calls.h, modelUnitCalls), which a model
// test checks against the real network. Throws KernelError from the kernels.
class Network {
public:
    virtual ~Network() = default;
    // inputs, targets: host (B,T) token ids, inputs in [0,Vp), targets in [0,V). Returns
    // the mean cross-entropy over the B*T positions; keeps activations for backward.
    virtual float forward(const int* inputs, const int* targets, UnitAccess& access) = 0;
    // Backward of grad_scale * mean loss of the last forward, which must have had the
    // same inputs and targets; accumulates into the grads and calls gradsReady in reverse
    // order of the units, the embedding last.
    virtual void backward(const int* inputs, const int* targets, UnitAccess& access,
                          float grad_scale) = 0;
    // The unpadded layout (pad_multiple 1) of the units; the engine builds its own
    // padded ParamLayout, whose tensor offsets within each unit are the same.
    virtual const ParamLayout& layout() const = 0;
    virtual const ModelShape& shape() const = 0;
    virtual int batch() const = 0;
    virtual int time() const = 0;
    virtual Recompute recompute() const = 0;
};

// The network of `shape`'s family. It allocates its activation arena through `kernels`
// and counts it in `ledger` as MemCategory::Activations (activationFootprint(shape, B, T,
// recompute).total(L) bytes) for its lifetime, keeping references to both. 1 <= T <=
// shape.seq_len (std::invalid_argument otherwise). With recompute other than None,
// backward computes what the mode does not keep again from the same inputs with the
// same kernels, so losses and gradients are bit-identical to None's.
std::unique_ptr<Network> makeNetwork(const ModelShape& shape, int B, int T, Kernels& kernels,
                                     MemoryLedger& ledger, Recompute recompute = Recompute::None);

// The family's deterministic init of one unit's params: every value is a function of
// (seed, tensor, layer, index in tensor) only, the same whatever pad_multiple/N is; the
// unit's padding is 0. unit_params is host memory of unit.padded_elems floats.
void initUnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                    float* unit_params);

} // namespace zerolab
