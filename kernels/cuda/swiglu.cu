// SwiGLU's gate, out = silu(gate) * up (kernels/swiglu_math.h), forward and backward:
// memory-bound passes, one grid-stride kernel each, size_t indices (n may exceed 2^31).
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/launch_geometry.h"
#include "kernels/swiglu_math.h"

namespace zerolab {

namespace {

using cuda::globalIndex;
using cuda::gridStride;

__global__ void __launch_bounds__(cuda::kBlock)
    swigluForwardKernel(float* out, const float* gate, const float* up, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const float g = gate[i];
        out[i] = swiglu::silu(g, expf(swiglu::negG(g))) * up[i];
    }
}

__global__ void __launch_bounds__(cuda::kBlock)
    swigluBackwardKernel(float* dgate, float* dup, const float* dout, const float* gate,
                         const float* up, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const float g = gate[i];
        const float e = expf(swiglu::negG(g));
        const float d = dout[i];
        dgate[i] += d * up[i] * swiglu::siluDerivative(g, e);
        dup[i] += d * swiglu::silu(g, e);
    }
}

} // namespace

void CudaKernels::swigluForward(float* out, const float* gate, const float* up, std::size_t n) {
    if (n == 0)
        return;
    const launch::Geometry g = launch::gridStride(n);
    swigluForwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(out, gate, up, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("swigluForwardKernel");
}

void CudaKernels::swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                                 const float* up, std::size_t n) {
    if (n == 0)
        return;
    const launch::Geometry g = launch::gridStride(n);
    swigluBackwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(dgate, dup, dout, gate, up, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("swigluBackwardKernel");
}

} // namespace zerolab
