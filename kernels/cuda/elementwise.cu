// GELU (tanh approximation, kernels/gelu_math.h), the residual add and the token +
// position encoder, forward and backward: memory-bound passes, one grid-stride kernel each.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/gelu_math.h"

namespace zerolab {

namespace {

using cuda::globalIndex;
using cuda::gridStride;

__global__ void __launch_bounds__(cuda::kBlock)
    geluForwardKernel(float* out, const float* inp, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const float x = inp[i];
        out[i] = gelu::value(x, expf(gelu::twoU(x)));
    }
}

__global__ void __launch_bounds__(cuda::kBlock)
    geluBackwardKernel(float* dinp, const float* inp, const float* dout, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const float x = inp[i];
        dinp[i] += gelu::derivative(x, expf(gelu::twoU(x))) * dout[i];
    }
}

__global__ void __launch_bounds__(cuda::kBlock)
    residualForwardKernel(float* out, const float* a, const float* b, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        out[i] = a[i] + b[i];
}

__global__ void __launch_bounds__(cuda::kBlock)
    residualBackwardKernel(float* da, float* db, const float* dout, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const float d = dout[i];
        da[i] += d;
        db[i] += d;
    }
}

// out(B,T,C): element (bt, c) = wte[inp[bt], c] + wpe[t, c]; wte's row alone without wpe.
__global__ void __launch_bounds__(cuda::kBlock)
    encoderForwardKernel(float* out, const int* inp, const float* wte, const float* wpe,
                         std::size_t rows, int T, int C) {
    const std::size_t n = rows * C;
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const std::size_t bt = i / C, c = i % C, t = bt % T;
        const float te = wte[static_cast<std::size_t>(inp[bt]) * C + c];
        out[i] = wpe ? te + wpe[t * C + c] : te;
    }
}

// dwpe(T,C) += sum over b: each thread owns one (t, c) and adds the B terms in order.
__global__ void __launch_bounds__(cuda::kBlock)
    encoderBackwardPositionKernel(float* dwpe, const float* dout, int B, int T, int C) {
    const std::size_t n = static_cast<std::size_t>(T) * C;
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        float acc = 0.0f;
        for (int b = 0; b < B; ++b)
            acc += dout[static_cast<std::size_t>(b) * n + i];
        dwpe[i] += acc;
    }
}

// dwte[inp[bt], c] += dout[bt, c]: positions with the same token collide, hence atomics.
__global__ void __launch_bounds__(cuda::kBlock)
    encoderBackwardTokenKernel(float* dwte, const float* dout, const int* inp, std::size_t rows,
                               int C) {
    const std::size_t n = rows * C;
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const std::size_t bt = i / C, c = i % C;
        atomicAdd(dwte + static_cast<std::size_t>(inp[bt]) * C + c, dout[i]);
    }
}

} // namespace

void CudaKernels::geluForward(float* out, const float* inp, std::size_t n) {
    if (n == 0)
        return;
    geluForwardKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(out, inp, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("geluForwardKernel");
}

void CudaKernels::geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) {
    if (n == 0)
        return;
    geluBackwardKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(dinp, inp, dout, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("geluBackwardKernel");
}

void CudaKernels::residualForward(float* out, const float* a, const float* b, std::size_t n) {
    if (n == 0)
        return;
    residualForwardKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(out, a, b, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("residualForwardKernel");
}

void CudaKernels::residualBackward(float* da, float* db, const float* dout, std::size_t n) {
    if (n == 0)
        return;
    residualBackwardKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(da, db, dout, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("residualBackwardKernel");
}

void CudaKernels::encoderForward(float* out, const int* inp, const float* wte, const float* wpe,
                                 int B, int T, int C) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    if (rows == 0 || C <= 0)
        return;
    encoderForwardKernel<<<cuda::gridFor(rows * C), cuda::kBlock, 0, m_stream>>>(out, inp, wte, wpe,
                                                                                 rows, T, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("encoderForwardKernel");
}

void CudaKernels::encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp,
                                  int B, int T, int C) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    if (rows == 0 || C <= 0)
        return;
    if (dwpe) { // no position table (Llama): the token scatter alone
        encoderBackwardPositionKernel<<<cuda::gridFor(static_cast<std::size_t>(T) * C),
                                        cuda::kBlock, 0, m_stream>>>(dwpe, dout, B, T, C);
        ZEROLAB_CUDA_CHECK_LAUNCH("encoderBackwardPositionKernel");
    }
    encoderBackwardTokenKernel<<<cuda::gridFor(rows * C), cuda::kBlock, 0, m_stream>>>(
        dwte, dout, inp, rows, C);
    ZEROLAB_CUDA_CHECK_LAUNCH("encoderBackwardTokenKernel");
}

} // namespace zerolab
