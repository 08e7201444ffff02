// The model's kernels per compute piece (step_ops.h): the family's list (family.h),
// priced on a machine profile.
#include "runtime/planner/step_ops.h"

#include "runtime/model/family.h"

namespace zerolab {

std::vector<KernelOp> modelComputeOps(ModelCompute c, const ModelShape& shape, int B, int T,
                                      Recompute recompute) {
    return familyOf(shape).compute_ops(c, shape, B, T, recompute);
}

std::vector<KernelOp> modelMatmuls(const ModelShape& shape, int B, int T) {
    return familyOf(shape).matmuls(shape, B, T);
}

double opsSeconds(const std::vector<KernelOp>& ops, const MachineProfile& profile) {
    double s = 0;
    for (const KernelOp& op : ops)
        s += op.work / opRate(profile, op.kind, op.m, op.k, op.n);
    return s;
}

} // namespace zerolab
