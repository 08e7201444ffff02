// Adam / AdamW steps: fp32 in place, and the mixed-precision variant that keeps
// an fp32 master and writes the bf16 working copy in the same pass.
#include "kernels/adam_math.h"
#include "kernels/cpu/cpu_kernels.h"

#include <cmath>
#include <string>

namespace zerolab {

void CpuKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                       const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i)
        params[i] = adamElement(params[i], grads[i], m[i], v[i], s);
}

void CpuKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float p = adamElement(master[i], floatFromBf16(grads[i]), m[i], v[i], s);
        master[i] = p;
        paramsOut[i] = bf16FromFloat(p);
    }
}

void CpuKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
#pragma omp parallel for simd num_threads(loopThreads(n)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const float p = adamElement(master[i], grads[i], m[i], v[i], s);
        master[i] = p;
        paramsOut[i] = bf16FromFloat(p);
    }
}

} // namespace zerolab
