// RMSNorm over the channel axis (LlamaRMSNorm: no bias, no mean subtraction), forward and
// backward: one warp per row, as layernorm.cu; the backward's column sum (dweight) is a
// cuBLAS gemv against a vector of ones, deterministic and near memory bandwidth.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

#include <sstream>

namespace zerolab {

namespace {

constexpr int kRowsPerBlock = cuda::kBlock / 32;

// Warp w of block b normalises row b*kRowsPerBlock + w (N is an int: the row index fits).
__global__ void __launch_bounds__(cuda::kBlock)
    rmsnormForwardKernel(float* out, float* rstd, const float* inp, const float* weight, int N,
                         int C, float eps) {
    const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const float* x = inp + static_cast<std::size_t>(row) * C;
    float* o = out + static_cast<std::size_t>(row) * C;
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
    const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const std::size_t off = static_cast<std::size_t>(row) * C;
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
    const unsigned blocks = (static_cast<unsigned>(N) + kRowsPerBlock - 1) / kRowsPerBlock;
    rmsnormForwardKernel<<<blocks, cuda::kBlock, 0, m_stream>>>(out, rstd, inp, weight, N, C, eps);
    ZEROLAB_CUDA_CHECK_LAUNCH("rmsnormForwardKernel");
}

void CudaKernels::rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                                  const float* weight, const float* rstd, int N, int C) {
    if (N <= 0 || C <= 0)
        return;
    const std::size_t total = static_cast<std::size_t>(N) * C;
    float* xhatDout = scratchFloats(total);
    const float* one = ones(static_cast<std::size_t>(N));
    const unsigned blocks = (static_cast<unsigned>(N) + kRowsPerBlock - 1) / kRowsPerBlock;
    rmsnormBackwardKernel<<<blocks, cuda::kBlock, 0, m_stream>>>(dinp, xhatDout, dout, inp, weight,
                                                                 rstd, N, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("rmsnormBackwardKernel");
    // Row-major (N,C) is column-major (C,N) with leading dimension C: y(C) += A ones(N).
    const float alpha = 1.0f, beta = 1.0f;
    ZEROLAB_CUDA_CHECK(
        cublasSgemv(m_blas, CUBLAS_OP_N, C, N, &alpha, xhatDout, C, one, 1, &beta, dweight, 1));
}

} // namespace zerolab
