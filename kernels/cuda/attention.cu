// Causal multi-head self-attention, forward and backward: per batch row b, one
// cuBLAS strided-batched product over the NH heads for each product (strided views
// of qkv, no copies; fp32 sgemm, or bf16 operands with fp32 accumulation under
// MatmulMath::Bf16), and warp-per-row kernels for the causal softmax.
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

// One strided-batched product over the NH heads, C = alpha op(A) op(B) + beta C with an
// fp32 C: sgemm for fp32 operands, GemmEx with fp32 accumulation for bf16 ones.
void batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
             float alpha, const float* A, int lda, long long sA, const float* B, int ldb,
             long long sB, float beta, float* C, int ldc, long long sC, int batch) {
    ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(h, ta, tb, m, n, k, &alpha, A, lda, sA, B, ldb, sB,
                                                 &beta, C, ldc, sC, batch));
}

void batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
             float alpha, const Bf16* A, int lda, long long sA, const Bf16* B, int ldb,
             long long sB, float beta, float* C, int ldc, long long sC, int batch) {
    ZEROLAB_CUDA_CHECK(cublasGemmStridedBatchedEx(
        h, ta, tb, m, n, k, &alpha, A, CUDA_R_16BF, lda, sA, B, CUDA_R_16BF, ldb, sB, &beta, C,
        CUDA_R_32F, ldc, sC, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// The shapes every product below shares.
struct AttnShape {
    int B, T, C, NH;
    int hs() const { return C / NH; }
    int C3() const { return 3 * C; }
    long long TT() const { return static_cast<long long>(T) * T; }
    float scale() const { return 1.0f / std::sqrt(static_cast<float>(hs())); }
};

// Per (b, h), row-major: q, k, v are (T,hs) views with row stride 3C at head offset h*hs;
// preatt, att are (T,T). In cuBLAS' column-major terms each view is its transpose.
// E is the operands' element type (float, or Bf16 copies for MatmulMath::Bf16).

// preatt^T(T,T) = scale k(T,hs) q^T(hs,T).
template <typename E>
void scoresForward(cublasHandle_t h, const AttnShape& s, const E* qkv, float* preatt) {
    const int T = s.T, hs = s.hs(), C3 = s.C3();
    for (int b = 0; b < s.B; ++b) {
        const E* q = qkv + static_cast<std::size_t>(b) * T * C3;
        const E* k = q + s.C;
        float* p = preatt + static_cast<std::size_t>(b) * s.NH * s.TT();
        batched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, hs, s.scale(), k, C3, hs, q, C3, hs, 0.0f, p, T,
                s.TT(), s.NH);
    }
}

// out^T(hs,T) = v^T(hs,T) att^T(T,T).
template <typename E>
void valuesForward(cublasHandle_t h, const AttnShape& s, const E* qkv, const E* att, float* out) {
    const int T = s.T, hs = s.hs(), C3 = s.C3();
    for (int b = 0; b < s.B; ++b) {
        const E* v = qkv + static_cast<std::size_t>(b) * T * C3 + 2 * s.C;
        const E* a = att + static_cast<std::size_t>(b) * s.NH * s.TT();
        float* o = out + static_cast<std::size_t>(b) * T * s.C;
        batched(h, CUBLAS_OP_N, CUBLAS_OP_N, hs, T, T, 1.0f, v, C3, hs, a, T, s.TT(), 0.0f, o, s.C,
                hs, s.NH);
    }
}

// datt^T(T,T) = v(T,hs) dout^T(hs,T); dv^T(hs,T) += dout^T(hs,T) att(T,T).
template <typename E>
void valuesBackward(cublasHandle_t h, const AttnShape& s, const E* qkv, const E* dout, const E* att,
                    float* datt, float* dqkv) {
    const int T = s.T, hs = s.hs(), C3 = s.C3();
    for (int b = 0; b < s.B; ++b) {
        const std::size_t qkvOff = static_cast<std::size_t>(b) * T * C3;
        const E* v = qkv + qkvOff + 2 * s.C;
        float* dv = dqkv + qkvOff + 2 * s.C;
        const E* dO = dout + static_cast<std::size_t>(b) * T * s.C;
        const E* a = att + static_cast<std::size_t>(b) * s.NH * s.TT();
        float* da = datt + static_cast<std::size_t>(b) * s.NH * s.TT();
        batched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, hs, 1.0f, v, C3, hs, dO, s.C, hs, 0.0f, da, T,
                s.TT(), s.NH);
        batched(h, CUBLAS_OP_N, CUBLAS_OP_T, hs, T, T, 1.0f, dO, s.C, hs, a, T, s.TT(), 1.0f, dv,
                C3, hs, s.NH);
    }
}

// dq^T(hs,T) += scale k^T(hs,T) dpreatt^T(T,T); dk^T(hs,T) += scale q^T(hs,T) dpreatt(T,T).
template <typename E>
void scoresBackward(cublasHandle_t h, const AttnShape& s, const E* qkv, const E* dpreatt,
                    float* dqkv) {
    const int T = s.T, hs = s.hs(), C3 = s.C3();
    for (int b = 0; b < s.B; ++b) {
        const std::size_t qkvOff = static_cast<std::size_t>(b) * T * C3;
        const E* q = qkv + qkvOff;
        const E* k = q + s.C;
        float* dq = dqkv + qkvOff;
        float* dk = dq + s.C;
        const E* dp = dpreatt + static_cast<std::size_t>(b) * s.NH * s.TT();
        batched(h, CUBLAS_OP_N, CUBLAS_OP_N, hs, T, T, s.scale(), k, C3, hs, dp, T, s.TT(), 1.0f,
                dq, C3, hs, s.NH);
        batched(h, CUBLAS_OP_N, CUBLAS_OP_T, hs, T, T, s.scale(), q, C3, hs, dp, T, s.TT(), 1.0f,
                dk, C3, hs, s.NH);
    }
}

} // namespace

// With MatmulMath::Bf16 the products read bf16 copies of qkv, att, dout and dpreatt
// (scratch slots 0-2); the softmax and every output stay fp32.
void CudaKernels::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                   int T, int C, int NH) {
    checkHeads("attentionForward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const AttnShape s{B, T, C, NH};
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * s.C3();
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * s.TT();
    const bool bf16 = m_math == MatmulMath::Bf16;
    const Bf16* qkvH = bf16 ? asBf16(0, qkv, nQkv) : nullptr;
    if (bf16)
        scoresForward(m_blas, s, qkvH, preatt);
    else
        scoresForward(m_blas, s, qkv, preatt);
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    causalSoftmaxKernel<<<rowBlocks(rows), cuda::kBlock, 0, m_stream>>>(att, preatt, rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxKernel");
    if (bf16)
        valuesForward(m_blas, s, qkvH, asBf16(1, att, nAtt), out);
    else
        valuesForward(m_blas, s, qkv, att, out);
}

void CudaKernels::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                    const float* qkv, const float* att, int B, int T, int C,
                                    int NH) {
    checkHeads("attentionBackward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const AttnShape s{B, T, C, NH};
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * s.C3();
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * s.TT();
    const std::size_t nOut = static_cast<std::size_t>(B) * T * C;
    const bool bf16 = m_math == MatmulMath::Bf16;
    const Bf16* qkvH = bf16 ? asBf16(0, qkv, nQkv) : nullptr;
    if (bf16)
        valuesBackward(m_blas, s, qkvH, asBf16(1, dout, nOut), asBf16(2, att, nAtt), datt, dqkv);
    else
        valuesBackward(m_blas, s, qkv, dout, att, datt, dqkv);
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    causalSoftmaxBackwardKernel<<<rowBlocks(rows), cuda::kBlock, 0, m_stream>>>(dpreatt, att, datt,
                                                                                rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxBackwardKernel");
    // Slot 1 (dout's copy) is free again: the products that read it come first on the stream.
    if (bf16)
        scoresBackward(m_blas, s, qkvH, asBf16(1, dpreatt, nAtt), dqkv);
    else
        scoresBackward(m_blas, s, qkv, dpreatt, dqkv);
}

} // namespace zerolab
