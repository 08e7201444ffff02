// The kernels each piece of the model's compute runs (model/unit_calls.h's ModelCompute),
// with their work: FLOPs for matmuls and attention, elements for the rest, at a
// micro-batch B and sequence length T. The step-time model prices them with a machine
// profile's rates; zerolab-calibrate measures those rates on the same kernels and shapes.
// The family lists them (family.h: gpt2/gpt2_family.cpp follows gpt2.cpp kernel by kernel).
#pragma once

#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"
#include "runtime/model/unit_calls.h"
#include "runtime/planner/machine_profile.h"

#include <vector>

namespace zerolab {

std::vector<KernelOp> modelComputeOps(ModelCompute c, const ModelShape& shape, int B, int T,
                                      Recompute recompute);

// The distinct matmul shapes the model runs at B, T (GPT-2: qkv, attention projection,
// fc, fc projection, lm head): what zerolab-calibrate measures.
std::vector<KernelOp> modelMatmuls(const ModelShape& shape, int B, int T);

// Seconds of `ops` on the profile, each at its own rate.
double opsSeconds(const std::vector<KernelOp>& ops, const MachineProfile& profile);

} // namespace zerolab
