// zerolab-calibrate's measurements on this machine with the runtime's own kernels and
// communicator: the rate of every kernel the step-time model counts (the model's matmul
// shapes at each micro-batch's M, the other kernels at the largest) and each collective's
// time over 1 KiB .. 64 MiB (the model in situ and the ranks' sharing: calibrate_pieces.h).
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/model/model_shape.h"
#include "runtime/planner/machine_profile.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// Progress lines ("kernels: matmul 256x64x192 ...") as the measurements go.
using CalibrationProgress = std::function<void(const std::string&)>;

// The upper median of timed samples (at least one): what every calibration keeps.
double median(std::vector<double> samples);

// Fills profile.rates and profile.matmuls for the shapes at micro-batches `micros` and
// their sequence length (shape.seq_len). Median of `reps` timed calls after a warm-up.
void measureKernelRates(Kernels& k, const std::vector<ModelShape>& shapes,
                        const std::vector<int>& micros, int reps, MachineProfile& profile,
                        const CalibrationProgress& progress);

// The measurements measureKernelRates makes, one progress line each: every distinct matmul
// shape of `shapes` at `micros`, then one probe per other kernel (zerolab-calibrate's
// --progress-json counts them ahead).
std::size_t kernelMeasurementCount(const std::vector<ModelShape>& shapes,
                                   const std::vector<int>& micros);

// The sizes measureCollective tries over `ranks` ranks: 1 KiB x 4^i up to `max_bytes`, and
// the calls a step of each of `shapes` makes at that world, each unit's padded parameters
// (engine layout, makeParamLayout) in bf16 and fp32 bytes (a unit's gradient reduce, its
// gather), from 64 KiB up to `max_bytes` where no size lies within 5% already; ascending.
// Across a rate-limited link a collective's time is no line in its size (past some size the
// shaper's queue drops and TCP waits out its retransmit timer): over 4 ranks across 200
// Mbit/s a 4 MiB reduce-scatter took 435 ms, 1 MiB 74 ms, and a run's 3.16 MB one 142 ms,
// where reading between 1 and 4 MiB gives 316. So the sizes a run calls are timed.
std::vector<double> collectiveSizes(double max_bytes, const std::vector<ModelShape>& shapes = {},
                                    int ranks = 1);

// (bytes, seconds per call) of `c` over the communicator's ranks at `sizes` (ascending,
// collectiveSizes): per size the larger of the median of 3 steady-state batches (machine_profile.h,
// steadyBatchCalls; the slowest rank's time over the calls) and the median of 5 single
// calls on a freshly written buffer after a barrier (the slowest rank's); stops growing where
// the next size would take longer than `max_call_s` (the last's time per byte). `measured`, if
// given, is called after each size.
// Collective.
std::vector<std::pair<double, double>>
measureCollective(Communicator& comm, Collective c, const std::vector<double>& sizes,
                  double max_call_s,
                  const std::function<void(double bytes, double seconds)>& measured = {});

} // namespace zerolab
