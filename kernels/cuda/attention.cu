// Causal multi-head self-attention, forward and backward: per batch row b, one
// cuBLAS strided-batched product over the NH heads for each product (strided views
// of qkv, no copies; fp32 sgemm, or bf16 operands with fp32 accumulation under
// MatmulMath::Bf16), and warp-per-row kernels for the causal softmax. The products'
// arguments are kernels/gemm_plan.h's attention plans, run as planned.
// The products cover the full (T,T) square; the softmax zeroes what lies above
// the diagonal, so the masked half costs flops but never leaks into results.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/cuda/gemm_exec.h"
#include "kernels/gemm_plan.h"

#include <string>
#include <vector>

namespace zerolab {

namespace {

void checkHeads(const char* op, int C, int NH) {
    if (NH < 1 || C % NH != 0)
        throw KernelError(std::string(op) + ": channels C=" + std::to_string(C) +
                          " must be a positive multiple of heads NH=" + std::to_string(NH));
}

// Row r of the (B*NH*T, T) matrices, query position i = r % T:
// att[0..i] = softmax(preatt[0..i]), att(i..T) = 0.
__global__ void __launch_bounds__(cuda::kBlock)
    causalSoftmaxKernel(float* att, const float* preatt, std::size_t rows, int T) {
    const std::size_t row = cuda::warpRow();
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
__global__ void __launch_bounds__(cuda::kBlock)
    causalSoftmaxBackwardKernel(float* dpreatt, const float* att, const float* datt,
                                std::size_t rows, int T) {
    const std::size_t row = cuda::warpRow();
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

template <typename E>
void runAll(cublasHandle_t h, const std::vector<gemm::GemmCall>& calls,
            const cuda::GemmBuffers<E>& bufs) {
    for (const gemm::GemmCall& call : calls)
        cuda::runGemm(h, call, bufs);
}

} // namespace

// With MatmulMath::Bf16 the products read bf16 copies of qkv, att, dout and dpreatt
// (scratch slots 0-2); the softmax and every output stay fp32.
void CudaKernels::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                   int T, int C, int NH) {
    checkHeads("attentionForward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const gemm::AttentionPlan plan = gemm::attentionForwardPlan({B, T, C, NH});
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * 3 * C;
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * T * T;
    const bool bf16 = m_math == MatmulMath::Bf16;
    const Bf16* qkvH = bf16 ? asBf16(0, qkv, nQkv) : nullptr;
    using gemm::Buffer;
    if (bf16)
        runAll(m_blas, plan.beforeSoftmax,
               cuda::GemmBuffers<Bf16>{}.input(Buffer::Qkv, qkvH).output(Buffer::Preatt, preatt));
    else
        runAll(m_blas, plan.beforeSoftmax,
               cuda::GemmBuffers<float>{}.input(Buffer::Qkv, qkv).output(Buffer::Preatt, preatt));
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    const launch::Geometry g = launch::warpPerRow(rows, "causalSoftmaxKernel");
    causalSoftmaxKernel<<<g.blocks, g.threads, 0, m_stream>>>(att, preatt, rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxKernel");
    if (bf16)
        runAll(m_blas, plan.afterSoftmax,
               cuda::GemmBuffers<Bf16>{}
                   .input(Buffer::Qkv, qkvH)
                   .input(Buffer::Att, asBf16(1, att, nAtt))
                   .output(Buffer::Out, out));
    else
        runAll(m_blas, plan.afterSoftmax,
               cuda::GemmBuffers<float>{}
                   .input(Buffer::Qkv, qkv)
                   .input(Buffer::Att, att)
                   .output(Buffer::Out, out));
}

void CudaKernels::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                    const float* qkv, const float* att, int B, int T, int C,
                                    int NH) {
    checkHeads("attentionBackward", C, NH);
    if (B <= 0 || T <= 0)
        return;
    const gemm::AttentionPlan plan = gemm::attentionBackwardPlan({B, T, C, NH});
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * 3 * C;
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * T * T;
    const std::size_t nOut = static_cast<std::size_t>(B) * T * C;
    const bool bf16 = m_math == MatmulMath::Bf16;
    const Bf16* qkvH = bf16 ? asBf16(0, qkv, nQkv) : nullptr;
    using gemm::Buffer;
    if (bf16)
        runAll(m_blas, plan.beforeSoftmax,
               cuda::GemmBuffers<Bf16>{}
                   .input(Buffer::Qkv, qkvH)
                   .input(Buffer::Dout, asBf16(1, dout, nOut))
                   .input(Buffer::Att, asBf16(2, att, nAtt))
                   .output(Buffer::Datt, datt)
                   .output(Buffer::Dqkv, dqkv));
    else
        runAll(m_blas, plan.beforeSoftmax,
               cuda::GemmBuffers<float>{}
                   .input(Buffer::Qkv, qkv)
                   .input(Buffer::Dout, dout)
                   .input(Buffer::Att, att)
                   .output(Buffer::Datt, datt)
                   .output(Buffer::Dqkv, dqkv));
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    const launch::Geometry g = launch::warpPerRow(rows, "causalSoftmaxBackwardKernel");
    causalSoftmaxBackwardKernel<<<g.blocks, g.threads, 0, m_stream>>>(dpreatt, att, datt, rows, T);
    ZEROLAB_CUDA_CHECK_LAUNCH("causalSoftmaxBackwardKernel");
    // Slot 1 (dout's copy) is free again: the products that read it come first on the stream.
    if (bf16)
        runAll(m_blas, plan.afterSoftmax,
               cuda::GemmBuffers<Bf16>{}
                   .input(Buffer::Qkv, qkvH)
                   .input(Buffer::Dpreatt, asBf16(1, dpreatt, nAtt))
                   .output(Buffer::Dqkv, dqkv));
    else
        runAll(m_blas, plan.afterSoftmax,
               cuda::GemmBuffers<float>{}
                   .input(Buffer::Qkv, qkv)
                   .input(Buffer::Dpreatt, dpreatt)
                   .output(Buffer::Dqkv, dqkv));
}

} // namespace zerolab
