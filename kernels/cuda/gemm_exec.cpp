// gemm_exec.h: the plans of kernels/gemm_plan.h as cuBLAS calls.
#include "kernels/cuda/gemm_exec.h"

#include "kernels/cuda/cuda_check.h"

#include <string>

namespace zerolab::cuda {

namespace {

cublasOperation_t op(gemm::Op o) {
    return o == gemm::Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
}

template <typename P>
P* bound(const std::array<P*, static_cast<std::size_t>(gemm::Buffer::Count)>& ptrs,
         const gemm::Operand& o, const char* what) {
    P* base = ptrs[static_cast<std::size_t>(o.buffer)];
    if (base == nullptr)
        throw KernelError(std::string(what) + ": no device buffer bound for '" +
                          gemm::bufferName(o.buffer) + "'");
    return base + o.offset;
}

} // namespace

void runGemm(cublasHandle_t h, const gemm::GemmCall& c, const GemmBuffers<float>& bufs) {
    const float* A = bound(bufs.in, c.a, c.what);
    const float* B = bound(bufs.in, c.b, c.what);
    float* C = bound(bufs.out, c.c, c.what);
    if (c.batch == 1)
        ZEROLAB_CUDA_CHECK(cublasSgemm(h, op(c.opA), op(c.opB), c.m, c.n, c.k, &c.alpha, A, c.a.ld,
                                       B, c.b.ld, &c.beta, C, c.c.ld));
    else
        ZEROLAB_CUDA_CHECK(cublasSgemmStridedBatched(
            h, op(c.opA), op(c.opB), c.m, c.n, c.k, &c.alpha, A, c.a.ld, c.a.stride, B, c.b.ld,
            c.b.stride, &c.beta, C, c.c.ld, c.c.stride, c.batch));
}

void runGemm(cublasHandle_t h, const gemm::GemmCall& c, const GemmBuffers<Bf16>& bufs) {
    const Bf16* A = bound(bufs.in, c.a, c.what);
    const Bf16* B = bound(bufs.in, c.b, c.what);
    float* C = bound(bufs.out, c.c, c.what);
    if (c.batch == 1)
        ZEROLAB_CUDA_CHECK(cublasGemmEx(h, op(c.opA), op(c.opB), c.m, c.n, c.k, &c.alpha, A,
                                        CUDA_R_16BF, c.a.ld, B, CUDA_R_16BF, c.b.ld, &c.beta, C,
                                        CUDA_R_32F, c.c.ld, CUBLAS_COMPUTE_32F,
                                        CUBLAS_GEMM_DEFAULT));
    else
        ZEROLAB_CUDA_CHECK(cublasGemmStridedBatchedEx(
            h, op(c.opA), op(c.opB), c.m, c.n, c.k, &c.alpha, A, CUDA_R_16BF, c.a.ld, c.a.stride, B,
            CUDA_R_16BF, c.b.ld, c.b.stride, &c.beta, C, CUDA_R_32F, c.c.ld, c.c.stride, c.batch,
            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void runGemv(cublasHandle_t h, const gemm::GemvCall& c, const GemmBuffers<float>& bufs) {
    const float* A = bound(bufs.in, c.a, c.what);
    const float* x = bound(bufs.in, c.x, c.what);
    float* y = bound(bufs.out, c.y, c.what);
    ZEROLAB_CUDA_CHECK(
        cublasSgemv(h, op(c.opA), c.m, c.n, &c.alpha, A, c.a.ld, x, c.x.ld, &c.beta, y, c.y.ld));
}

} // namespace zerolab::cuda
