// The Linear layer out = inp * weight^T + bias, forward and backward, as cuBLAS
// calls. cuBLAS is column-major: a row-major (R,K) matrix is the column-major
// (K,R) matrix, i.e. its transpose, so each product below is written transposed.
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
    ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_T, CUBLAS_OP_N, OC, N, C, &alpha, weight, C,
                                   inp, C, &beta, out, OC));
}

void CudaKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, int N, int C, int OC) {
    if (N <= 0 || OC <= 0 || C <= 0)
        return;
    const float alpha = 1.0f, beta = 1.0f;
    // dinp^T(C,N) += weight^T(C,OC) * dout^T(OC,N).
    if (dinp != nullptr)
        ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_N, CUBLAS_OP_N, C, N, OC, &alpha, weight,
                                       C, dout, OC, &beta, dinp, C));
    // dweight^T(C,OC) += inp^T(C,N) * dout(N,OC).
    ZEROLAB_CUDA_CHECK(cublasSgemm(m_blas, CUBLAS_OP_N, CUBLAS_OP_T, C, OC, N, &alpha, inp, C, dout,
                                   OC, &beta, dweight, C));
    // dbias(OC) += dout^T(OC,N) * ones(N): column sums of the row-major dout.
    if (dbias != nullptr)
        ZEROLAB_CUDA_CHECK(cublasSgemv(m_blas, CUBLAS_OP_N, OC, N, &alpha, dout, OC,
                                       ones(static_cast<std::size_t>(N)), 1, &beta, dbias, 1));
}

} // namespace zerolab
