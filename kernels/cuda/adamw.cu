// Fused Adam / AdamW over a shard: one pass reads grad, m, v and the (master)
// parameter and writes them back; the mixed variant also writes the bf16 copy.
#include "kernels/adam_math.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

#include <cmath>
#include <string>

namespace zerolab {

namespace {

__global__ void __launch_bounds__(cuda::kBlock)
    adamKernel(float* params, const float* grads, float* m, float* v, std::size_t n,
               AdamScalars s) {
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride()) {
        float mi = m[i], vi = v[i];
        params[i] = adamElement(params[i], grads[i], mi, vi, s);
        m[i] = mi;
        v[i] = vi;
    }
}

template <typename G>
__global__ void __launch_bounds__(cuda::kBlock)
    adamMixedKernel(float* master, Bf16* paramsOut, const G* grads, float* m, float* v,
                    std::size_t n, AdamScalars s) {
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride()) {
        float mi = m[i], vi = v[i];
        const float p = adamElement(master[i], cuda::loadFloat(grads, i), mi, vi, s);
        master[i] = p;
        paramsOut[i] = cuda::toBf16Device(p);
        m[i] = mi;
        v[i] = vi;
    }
}

} // namespace

void CudaKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                        const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(params, grads, m, v, n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamKernel");
}

void CudaKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                             std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamMixedKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(master, paramsOut, grads, m, v,
                                                                     n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamMixedKernel<bf16>");
}

void CudaKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                             std::size_t n, const AdamParams& hp) {
    const AdamScalars s = adamScalars(hp);
    if (n == 0)
        return;
    adamMixedKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(master, paramsOut, grads, m, v,
                                                                     n, s);
    ZEROLAB_CUDA_CHECK_LAUNCH("adamMixedKernel<fp32>");
}

} // namespace zerolab
