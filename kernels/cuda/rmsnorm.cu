// RMSNorm over the channel axis (LlamaRMSNorm: no bias, no mean subtraction), forward and
// backward: one warp per row, as layernorm.cu; the backward's column sum (dweight) is a
// cuBLAS gemv against a vector of ones, deterministic and near memory bandwidth.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/cuda/gemm_exec.h"
#include "kernels/gemm_plan.h"
#include "kernels/launch_geometry.h"

#include <sstream>

namespace zerolab {

namespace {

// One warp per row (cuda::warpRow, 64-bit).
__global__ void __launch_bounds__(cuda::kBlock)
    rmsnormForwardKernel(float* out, float* rstd, const float* inp, const float* weight, int N,
                         int C, float eps) {
    const std::size_t row = cuda::warpRow();
    const int lane = threadIdx.x % 32;
    if (row >= static_cast<std::size_t>(N))
        return;
    const float* x = inp + row * C;
    float* o = out + row * C;
    float sq = 0.0f;
    for (int c = lane; c < C; c += 32)
        sq += x[c] * x[c];
    const float s = 1.0f / sqrtf(cuda::warpSum(sq) / C + eps);
    for (int c = lane; c < C; c += 32)
        o[c] = (x[c] * s) * weight[c];
    if (lane == 0)
        rstd[row] = s;
}

// Per row, xhat = x rstd, g = weight dout:
//   dinp += rstd (g - xhat mean(g xhat)); xhatDout = xhat dout (for dweight).
__global__ void __launch_bounds__(cuda::kBlock)
    rmsnormBackwardKernel(float* dinp, float* xhatDout, const float* dout, const float* inp,
                          const float* weight, const float* rstd, int N, int C) {
    const std::size_t row = cuda::warpRow();
    const int lane = threadIdx.x % 32;
    if (row >= static_cast<std::size_t>(N))
        return;
    const std::size_t off = row * C;
    const float* x = inp + off;
    const float* d = dout + off;
    const float s = rstd[row];
    float gxSum = 0.0f;
    for (int c = lane; c < C; c += 32)
        gxSum += weight[c] * d[c] * (x[c] * s);
    const float gxMean = cuda::warpSum(gxSum) / C;
    for (int c = lane; c < C; c += 32) {
        const float xhat = x[c] * s;
        xhatDout[off + c] = xhat * d[c];
        dinp[off + c] += s * (weight[c] * d[c] - xhat * gxMean);
    }
}

} // namespace

void CudaKernels::rmsnormForward(float* out, float* rstd, const float* inp, const float* weight,
                                 int N, int C, float eps) {
    if (!(eps > 0.0f)) {
        std::ostringstream msg;
        msg << "rmsnormForward: eps must be > 0 (rms_norm_eps), got " << eps;
        throw KernelError(msg.str());
    }
    if (N <= 0 || C <= 0)
        return;
    const launch::Geometry g = launch::warpPerRow(N, "rmsnormForwardKernel");
    rmsnormForwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(out, rstd, inp, weight, N, C, eps);
    ZEROLAB_CUDA_CHECK_LAUNCH("rmsnormForwardKernel");
}

void CudaKernels::rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                                  const float* weight, const float* rstd, int N, int C) {
    if (N <= 0 || C <= 0)
        return;
    const std::size_t total = static_cast<std::size_t>(N) * C;
    float* xhatDout = scratchFloats(total);
    const float* one = ones(static_cast<std::size_t>(N));
    const launch::Geometry g = launch::warpPerRow(N, "rmsnormBackwardKernel");
    rmsnormBackwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(dinp, xhatDout, dout, inp, weight,
                                                                rstd, N, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("rmsnormBackwardKernel");
    // dweight: the column sum as a GEMV against ones (kernels/gemm_plan.h).
    const auto bufs = cuda::GemmBuffers<float>{}
                          .input(gemm::Buffer::XhatDout, xhatDout)
                          .input(gemm::Buffer::Ones, one)
                          .output(gemm::Buffer::Dweight, dweight);
    cuda::runGemv(m_blas, gemm::rmsnormBackwardPlan(N, C), bufs);
}

} // namespace zerolab
