// zerolab-calibrate's in-situ timing of the model (machine_profile.h, ModelPieceTimes): a
// real Gpt2 forward and backward on this machine's kernels, clocked between the model's
// calls to its UnitAccess, each interval charged to the piece of compute unit_calls.h says
// follows that call. What summing kernel rates misses (the model's own zeroing and
// copies, caches as a step leaves them, a sustained rather than a burst clock) is in it.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/model/model_shape.h"
#include "runtime/planner/machine_profile.h"

namespace zerolab {

// The pieces of `shape` at micro-batch B and T = shape.seq_len: the median over `reps`
// forward-and-backward passes (after one warm-up) of each piece's seconds per call, with
// full recompute so that every piece runs. Throws KernelError from the kernels, and
// std::logic_error if the model's calls are not those of gpt2UnitCalls.
ModelPieceTimes measureModelPieces(Kernels& k, const ModelShape& shape, int B, int reps);

// Seconds of one forward and backward of `shape` at B, the median of `reps` after a
// warm-up, while every rank of `comm` runs the same at once (collective; nullptr: this
// process alone): their ratio is the slowdown of ranks sharing the machine.
double sharedPassSeconds(Kernels& k, const ModelShape& shape, int B, int reps, Communicator* comm);

} // namespace zerolab
