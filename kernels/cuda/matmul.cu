// The Linear layer out = inp * weight^T + bias, forward and backward, as cuBLAS
// calls: sgemm (MatmulMath::Fp32) or GemmEx on bf16 copies of the operands with fp32
// accumulation (MatmulMath::Bf16). cuBLAS is column-major: a row-major (R,K) matrix is
// the column-major (K,R) matrix, i.e. its transpose: the products' arguments are
// kernels/gemm_plan.h's matmul plans, run as planned by cuda::runGemm.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/cuda/gemm_exec.h"
#include "kernels/gemm_plan.h"

#include <vector>

namespace zerolab {

namespace {

// out(N,OC) row by row = bias(OC): sgemm then adds the product into it (beta = 1).
__global__ void __launch_bounds__(cuda::kBlock)
    fillRowsKernel(float* out, const float* bias, std::size_t rows, int OC) {
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

void CudaKernels::matmulForward(float* out, const float* inp, const float* weight,
                                const float* bias, int N, int C, int OC) {
    if (N <= 0 || OC <= 0)
        return;
    if (bias != nullptr) {
        const std::size_t total = static_cast<std::size_t>(N) * OC;
        fillRowsKernel<<<cuda::gridFor(total), cuda::kBlock, 0, m_stream>>>(out, bias, N, OC);
        ZEROLAB_CUDA_CHECK_LAUNCH("fillRowsKernel");
    }
    const gemm::GemmCall plan = gemm::matmulForwardPlan(N, C, OC, bias != nullptr);
    if (m_math == MatmulMath::Bf16) {
        const std::size_t nW = static_cast<std::size_t>(OC) * C,
                          nX = static_cast<std::size_t>(N) * C;
        cuda::runGemm(m_blas, plan,
                      cuda::GemmBuffers<Bf16>{}
                          .input(gemm::Buffer::Weight, asBf16(0, weight, nW))
                          .input(gemm::Buffer::Inp, asBf16(1, inp, nX))
                          .output(gemm::Buffer::Out, out));
        return;
    }
    cuda::runGemm(m_blas, plan,
                  cuda::GemmBuffers<float>{}
                      .input(gemm::Buffer::Weight, weight)
                      .input(gemm::Buffer::Inp, inp)
                      .output(gemm::Buffer::Out, out));
}

void CudaKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, int N, int C, int OC) {
    if (N <= 0 || OC <= 0 || C <= 0)
        return;
    const std::vector<gemm::GemmCall> plan = gemm::matmulBackwardPlan(N, C, OC, dinp != nullptr);
    if (m_math == MatmulMath::Bf16) {
        const auto bufs =
            cuda::GemmBuffers<Bf16>{}
                .input(gemm::Buffer::Weight, asBf16(0, weight, static_cast<std::size_t>(OC) * C))
                .input(gemm::Buffer::Inp, asBf16(1, inp, static_cast<std::size_t>(N) * C))
                .input(gemm::Buffer::Dout, asBf16(2, dout, static_cast<std::size_t>(N) * OC))
                .output(gemm::Buffer::Dinp, dinp)
                .output(gemm::Buffer::Dweight, dweight);
        for (const gemm::GemmCall& call : plan)
            cuda::runGemm(m_blas, call, bufs);
    } else {
        const auto bufs = cuda::GemmBuffers<float>{}
                              .input(gemm::Buffer::Weight, weight)
                              .input(gemm::Buffer::Inp, inp)
                              .input(gemm::Buffer::Dout, dout)
                              .output(gemm::Buffer::Dinp, dinp)
                              .output(gemm::Buffer::Dweight, dweight);
        for (const gemm::GemmCall& call : plan)
            cuda::runGemm(m_blas, call, bufs);
    }
    // dbias: column sums of the row-major dout (fp32 either way).
    if (dbias != nullptr)
        cuda::runGemv(m_blas, gemm::matmulDbiasPlan(N, OC),
                      cuda::GemmBuffers<float>{}
                          .input(gemm::Buffer::Dout, dout)
                          .input(gemm::Buffer::Ones, ones(static_cast<std::size_t>(N)))
                          .output(gemm::Buffer::Dbias, dbias));
}

} // namespace zerolab
