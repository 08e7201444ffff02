// Causal multi-head self-attention, forward and backward: per batch row b, one
// cuBLAS strided-batched sgemm over the NH heads for each product (strided views
// of qkv, no copies), and warp-per-row kernels for the causal softmax.
// The products cover the full (T,T) square; the softmax zeroes what lies above
// the diagonal, so the masked half costs flops but never leaks into results.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

#include <cmath>
#include <string>

namespace zerolab {

namespace {

constexpr int kRowsPerBlock = cuda::kBlock / 32;

void checkHeads(const char* op, int C, int NH) {
    if (NH < 1 || C % NH != 0)
        throw KernelError(std::string(op) + ": channels C=" + std::to_string(C) +
                          " must be a positive multiple of heads NH=" + std::to_string(NH));
}

// Row r of the (B*NH*T, T) matrices, query position i = r % T:
// att[0..i] = softmax(preatt[0..i]), att(i..T) = 0.
__global__ void causalSoftmaxKernel(float* att, const float* preatt, std::size_t rows, int T) {
    const std::size_t row = static_cast<std::size_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    const int i = static_cast<int>(row % T);
    const float* p = preatt + row * T;
    float* a = att + row * T;
    float maxv = -INFINITY;
    for (int j = lane; j <= i; j += 32)
        maxv = fmaxf(maxv, p[j]);
    maxv = cuda::warpMax(maxv);
    float sum = 0.0f;
    for (int j = lane; j <= i; j += 32)
        sum += expf(p[j] - maxv);
    const float inv = 1.0f / cuda::warpSum(sum);
    for (int j = lane; j < T; j += 32)
        a[j] = j <= i ? expf(p[j] - maxv) * inv : 0.0f;
}

// dpreatt[j] = att[j] (datt[j] - sum_k<=i att[k] datt[k]) for j <= i, 0 above the
// diagonal (the following products read the whole row).
__global__ void causalSoftmaxBackwardKernel(float* dpreatt, const float* att, const float* datt,
                                            std::size_t rows, int T) {
    const std::size_t row = static_cast<std::size_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    const int i = static_cast<int>(row % T);
    const float* a = att + row * T;
    const float* da = datt + row * T;
    float* dp = dpreatt + row * T;
    float dot = 0.0f;
    for (int j = lane; j <= i; j += 32)
        dot += a[j] * da[j];
    dot = cuda::warpSum(dot);
    for (int j = lane; j < T; j += 32)
        dp[j] = j <= i ? a[j] * (da[j] - dot) : 0.0f;
}

unsigned rowBlocks(std::size_t rows) {
    return static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
}

} // namespace

// Per (b, h), row-major: q, k, v are (T,hs) views with row stride 3C at head offset h*hs;
// preatt, att are (T,T). In cuBLAS' column-major terms each view is its transpose.
void CudaKernels::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                   int T, int C, int NH) {
    checkHeads("attentionForward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const int hs = C / NH, C3 = 3 * C;
    const long long TT = static_cast<long long>(T) * T;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
    const float one = 1.0f, zeroF = 0.0f;
    for (int b = 0; b < B; ++b) {
        const float* q = qkv + static_cast<std::size_t>(b) * T * C3;
        const float* k = q + C;
        float* p = preatt + static_cast<std::size_t>(b) * NH * TT;
        // preatt^T(T,T) = k(T,hs) q^T(hs,T), scaled.
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_T, CUBLAS_OP_N, T, T, hs,
                                                     &scale, k, C3, hs, q, C3, hs, &zeroF, p, T, TT,
                                                     NH));
    }
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    causalSoftmaxKernel<<<rowBlocks(rows), cuda::kBlock, 0, m_stream>>>(att, preatt, rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxKernel");
    for (int b = 0; b < B; ++b) {
        const float* v = qkv + static_cast<std::size_t>(b) * T * C3 + 2 * C;
        const float* a = att + static_cast<std::size_t>(b) * NH * TT;
        float* o = out + static_cast<std::size_t>(b) * T * C;
        // out^T(hs,T) = v^T(hs,T) att^T(T,T).
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_N, CUBLAS_OP_N, hs, T, T,
                                                     &one, v, C3, hs, a, T, TT, &zeroF, o, C, hs,
                                                     NH));
    }
}

void CudaKernels::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                    const float* qkv, const float* att, int B, int T, int C,
                                    int NH) {
    checkHeads("attentionBackward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const int hs = C / NH, C3 = 3 * C;
    const long long TT = static_cast<long long>(T) * T;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
    const float one = 1.0f, zeroF = 0.0f;
    for (int b = 0; b < B; ++b) {
        const std::size_t qkvOff = static_cast<std::size_t>(b) * T * C3;
        const float* v = qkv + qkvOff + 2 * C;
        float* dv = dqkv + qkvOff + 2 * C;
        const float* dO = dout + static_cast<std::size_t>(b) * T * C;
        const float* a = att + static_cast<std::size_t>(b) * NH * TT;
        float* da = datt + static_cast<std::size_t>(b) * NH * TT;
        // datt^T(T,T) = v(T,hs) dout^T(hs,T).
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_T, CUBLAS_OP_N, T, T, hs,
                                                     &one, v, C3, hs, dO, C, hs, &zeroF, da, T, TT,
                                                     NH));
        // dv^T(hs,T) += dout^T(hs,T) att(T,T).
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_N, CUBLAS_OP_T, hs, T, T,
                                                     &one, dO, C, hs, a, T, TT, &one, dv, C3, hs,
                                                     NH));
    }
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    causalSoftmaxBackwardKernel<<<rowBlocks(rows), cuda::kBlock, 0, m_stream>>>(dpreatt, att, datt,
                                                                                rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxBackwardKernel");
    for (int b = 0; b < B; ++b) {
        const std::size_t qkvOff = static_cast<std::size_t>(b) * T * C3;
        const float* q = qkv + qkvOff;
        const float* k = q + C;
        float* dq = dqkv + qkvOff;
        float* dk = dq + C;
        const float* dp = dpreatt + static_cast<std::size_t>(b) * NH * TT;
        // dq^T(hs,T) += scale k^T(hs,T) dpreatt^T(T,T).
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_N, CUBLAS_OP_N, hs, T, T,
                                                     &scale, k, C3, hs, dp, T, TT, &one, dq, C3, hs,
                                                     NH));
        // dk^T(hs,T) += scale q^T(hs,T) dpreatt(T,T).
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(m_blas, CUBLAS_OP_N, CUBLAS_OP_T, hs, T, T,
                                                     &scale, q, C3, hs, dp, T, TT, &one, dk, C3, hs,
                                                     NH));
    }
}

} // namespace zerolab
