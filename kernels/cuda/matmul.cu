// The Linear layer out = inp * weight^T + bias, forward and backward, as cuBLAS
// calls: sgemm (MatmulMath::Fp32) or GemmEx on bf16 copies of the operands with fp32
// accumulation (MatmulMath::Bf16). cuBLAS is column-major: a row-major (R,K) matrix is
// the column-major (K,R) matrix, i.e. its transpose, so each product below is written
// transposed.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

namespace zerolab {

namespace {

// out(N,OC) row by row = bias(OC): sgemm then adds the product into it (beta = 1).
__global__ void fillRowsKernel(float* out, const float* bias, std::size_t rows, int OC) {
    const std::size_t n = rows * OC;
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride())
        out[i] = bias[i % OC];
}

} // namespace

const Bf16* CudaKernels::asBf16(int slot, const float* x, std::size_t n) {
    Bf16* out = bf16Scratch(slot, n);
    toBf16(out, x, n);
    return out;
}

void CudaKernels::gemmBf16(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           float alpha, const Bf16* A, int lda, const Bf16* B, int ldb, float beta,
                           float* C, int ldc) {
    ZEROLAB_CUDA_CHECK(cublasGemmEx(m_blas, ta, tb, m, n, k, &alpha, A, CUDA_R_16BF, lda, B,
                                    CUDA_R_16BF, ldb, &beta, C, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT));
}

void CudaKernels::matmulForward(float* out, const float* inp, const float* weight,
                                const float* bias, int N, int C, int OC) {
    if (N <= 0 || OC <= 0)
        return;
    float beta = 0.0f;
    if (bias != nullptr) {
        const std::size_t total = static_cast<std::size_t>(N) * OC;
        fillRowsKernel<<<cuda::gridFor(total), cuda::kBlock, 0, m_stream>>>(out, bias, N, OC);
        ZEROLAB_CUDA_CHECK_LAUNCH("fillRowsKernel");
        beta = 1.0f;
    }
    // out^T(OC,N) = weight(OC,C) * inp^T(C,N); weight as stored is weight^T, so op T.
    const float alpha = 1.0f;
    if (m_math == MatmulMath::Bf16) {
        const std::size_t nW = static_cast<std::size_t>(OC) * C,
                          nX = static_cast<std::size_t>(N) * C;
        gemmBf16(CUBLAS_OP_T, CUBLAS_OP_N, OC, N, C, alpha, asBf16(0, weight, nW), C,
                 asBf16(1, inp, nX), C, beta, out, OC);
        return;
    }
    ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_T, CUBLAS_OP_N, OC, N, C, &alpha, weight, C,
                                   inp, C, &beta, out, OC));
}

void CudaKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, int N, int C, int OC) {
    if (N <= 0 || OC <= 0 || C <= 0)
        return;
    const float alpha = 1.0f, beta = 1.0f;
    if (m_math == MatmulMath::Bf16) {
        const Bf16* w = asBf16(0, weight, static_cast<std::size_t>(OC) * C);
        const Bf16* x = asBf16(1, inp, static_cast<std::size_t>(N) * C);
        const Bf16* d = asBf16(2, dout, static_cast<std::size_t>(N) * OC);
        if (dinp != nullptr)
            gemmBf16(CUBLAS_OP_N, CUBLAS_OP_N, C, N, OC, alpha, w, C, d, OC, beta, dinp, C);
        gemmBf16(CUBLAS_OP_N, CUBLAS_OP_T, C, OC, N, alpha, x, C, d, OC, beta, dweight, C);
    } else {
        // dinp^T(C,N) += weight^T(C,OC) * dout^T(OC,N).
        if (dinp != nullptr)
            ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_N, CUBLAS_OP_N, C, N, OC, &alpha,
                                           weight, C, dout, OC, &beta, dinp, C));
        // dweight^T(C,OC) += inp^T(C,N) * dout(N,OC).
        ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_N, CUBLAS_OP_T, C, OC, N, &alpha, inp, C,
                                       dout, OC, &beta, dweight, C));
    }
    // dbias(OC) += dout^T(OC,N) * ones(N): column sums of the row-major dout.
    if (dbias != nullptr)
        ZEROLAB_CUDA_CHECK(cublasSgemv(m_blas, CUBLAS_OP_N, OC, N, &alpha, dout, OC,
                                       ones(static_cast<std::size_t>(N)), 1, &beta, dbias, 1));
}

} // namespace zerolab
