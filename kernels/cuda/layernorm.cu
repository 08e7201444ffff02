// LayerNorm over the channel axis (eps 1e-5), forward and backward: one warp per
// row; the backward's column sums (dweight, dbias) are cuBLAS gemv calls against
// a vector of ones, deterministic and near memory bandwidth.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/cuda/gemm_exec.h"
#include "kernels/gemm_plan.h"

namespace zerolab {

namespace {

constexpr float kLayernormEps = 1e-5f;

// One warp per row (cuda::warpRow). Two passes (mean, then centred
// squares) as on the CPU: no cancellation for large means.
__global__ void __launch_bounds__(cuda::kBlock)
    layernormForwardKernel(float* out, float* mean, float* rstd, const float* inp,
                           const float* weight, const float* bias, int N, int C) {
    const std::size_t row = cuda::warpRow();
    const int lane = threadIdx.x % 32;
    if (row >= static_cast<std::size_t>(N))
        return;
    const float* x = inp + row * C;
    float* o = out + row * C;
    float sum = 0.0f;
    for (int c = lane; c < C; c += 32)
        sum += x[c];
    const float m = cuda::warpSum(sum) / C;
    float sq = 0.0f;
    for (int c = lane; c < C; c += 32)
        sq += (x[c] - m) * (x[c] - m);
    const float s = rsqrtf(cuda::warpSum(sq) / C + kLayernormEps);
    for (int c = lane; c < C; c += 32)
        o[c] = (x[c] - m) * s * weight[c] + bias[c];
    if (lane == 0) {
        mean[row] = m;
        rstd[row] = s;
    }
}

// Per row, xhat = (x - mean) rstd, g = weight dout:
//   dinp += rstd (g - mean(g) - xhat mean(g xhat)); xhatDout = xhat dout (for dweight).
__global__ void __launch_bounds__(cuda::kBlock)
    layernormBackwardKernel(float* dinp, float* xhatDout, const float* dout, const float* inp,
                            const float* weight, const float* mean, const float* rstd, int N,
                            int C) {
    const std::size_t row = cuda::warpRow();
    const int lane = threadIdx.x % 32;
    if (row >= static_cast<std::size_t>(N))
        return;
    const std::size_t off = row * C;
    const float* x = inp + off;
    const float* d = dout + off;
    const float m = mean[row], s = rstd[row];
    float gSum = 0.0f, gxSum = 0.0f;
    for (int c = lane; c < C; c += 32) {
        const float g = weight[c] * d[c];
        gSum += g;
        gxSum += g * (x[c] - m) * s;
    }
    const float gMean = cuda::warpSum(gSum) / C;
    const float gxMean = cuda::warpSum(gxSum) / C;
    for (int c = lane; c < C; c += 32) {
        const float xhat = (x[c] - m) * s;
        xhatDout[off + c] = xhat * d[c];
        dinp[off + c] += s * (weight[c] * d[c] - gMean - xhat * gxMean);
    }
}

} // namespace

void CudaKernels::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                   const float* weight, const float* bias, int N, int C) {
    if (N <= 0 || C <= 0)
        return;
    const launch::Geometry g = launch::warpPerRow(N, "layernormForwardKernel");
    layernormForwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(out, mean, rstd, inp, weight, bias,
                                                                 N, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("layernormForwardKernel");
}

void CudaKernels::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                    const float* inp, const float* weight, const float* mean,
                                    const float* rstd, int N, int C) {
    if (N <= 0 || C <= 0)
        return;
    const std::size_t total = static_cast<std::size_t>(N) * C;
    float* xhatDout = scratchFloats(total);
    const float* one = ones(static_cast<std::size_t>(N));
    const launch::Geometry g = launch::warpPerRow(N, "layernormBackwardKernel");
    layernormBackwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(dinp, xhatDout, dout, inp, weight,
                                                                  mean, rstd, N, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("layernormBackwardKernel");
    // dweight, dbias: column sums as GEMVs against ones (kernels/gemm_plan.h).
    const auto bufs = cuda::GemmBuffers<float>{}
                          .input(gemm::Buffer::XhatDout, xhatDout)
                          .input(gemm::Buffer::Dout, dout)
                          .input(gemm::Buffer::Ones, one)
                          .output(gemm::Buffer::Dweight, dweight)
                          .output(gemm::Buffer::Dbias, dbias);
    for (const gemm::GemvCall& call : gemm::layernormBackwardPlan(N, C))
        cuda::runGemv(m_blas, call, bufs);
}

} // namespace zerolab
