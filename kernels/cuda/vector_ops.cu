// Element-wise utilities on the device: bf16 conversions and accumulation, axpy,
// scale, zero and the sum of squares for global-norm clipping (two deterministic passes in double).
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

namespace zerolab {

namespace {

using cuda::globalIndex;
using cuda::gridStride;

__global__ void __launch_bounds__(cuda::kBlock)
    toBf16Kernel(Bf16* out, const float* in, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        out[i] = cuda::toBf16Device(in[i]);
}

__global__ void __launch_bounds__(cuda::kBlock)
    toFloatKernel(float* out, const Bf16* in, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        out[i] = cuda::toFloatDevice(in[i]);
}

template <typename T>
__global__ void __launch_bounds__(cuda::kBlock)
    accumulateKernel(Bf16* dst, const T* src, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        dst[i] = cuda::toBf16Device(cuda::toFloatDevice(dst[i]) + cuda::loadFloat(src, i));
}

constexpr std::size_t kNarrowHead = 1024;

// One block: every thread reads its floats of [0, n) (n <= kNarrowHead) before any writes.
__global__ void __launch_bounds__(cuda::kBlock) narrowHeadKernel(float* buf, std::size_t n) {
    constexpr int kPer = kNarrowHead / cuda::kBlock;
    float x[kPer];
    for (int k = 0; k < kPer; ++k) {
        const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * blockDim.x;
        x[k] = i < n ? buf[i] : 0.0f;
    }
    __syncthreads();
    Bf16* out = reinterpret_cast<Bf16*>(buf);
    for (int k = 0; k < kPer; ++k) {
        const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * blockDim.x;
        if (i < n)
            out[i] = cuda::toBf16Device(x[k]);
    }
}

// Elements [begin, end) with end <= 2*begin: reads floats [begin, end), writes floats
// [begin/2, end/2), which earlier launches have consumed.
__global__ void __launch_bounds__(cuda::kBlock)
    narrowRangeKernel(float* buf, std::size_t begin, std::size_t end) {
    Bf16* out = reinterpret_cast<Bf16*>(buf);
    for (std::size_t i = begin + globalIndex(); i < end; i += gridStride())
        out[i] = cuda::toBf16Device(buf[i]);
}

__global__ void __launch_bounds__(cuda::kBlock)
    axpyKernel(float* y, float alpha, const float* x, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        y[i] += alpha * x[i];
}

__global__ void __launch_bounds__(cuda::kBlock) scaleKernel(float* x, float s, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        x[i] *= s;
}

__global__ void __launch_bounds__(cuda::kBlock) fillKernel(float* x, float value, std::size_t n) {
    for (std::size_t i = globalIndex(); i < n; i += gridStride())
        x[i] = value;
}

// Pass 1: block b sums the squares of its grid-stride share into partials[b].
template <typename T>
__global__ void __launch_bounds__(cuda::kBlock)
    sumSquaresPartialKernel(double* partials, const T* x, std::size_t n) {
    __shared__ double shared[32];
    double acc = 0.0;
    for (std::size_t i = globalIndex(); i < n; i += gridStride()) {
        const double xi = cuda::loadFloat(x, i);
        acc += xi * xi;
    }
    acc = cuda::blockSum(acc, shared);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

// Pass 2: one block adds the partials in a fixed order.
__global__ void __launch_bounds__(cuda::kBlock)
    sumPartialsKernel(double* total, const double* partials, int count) {
    __shared__ double shared[32];
    double acc = 0.0;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        acc += partials[i];
    acc = cuda::blockSum(acc, shared);
    if (threadIdx.x == 0)
        *total = acc;
}

} // namespace

void CudaKernels::toBf16(Bf16* out, const float* in, std::size_t n) {
    if (n == 0)
        return;
    toBf16Kernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(out, in, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("toBf16Kernel");
}

void CudaKernels::toFloat(float* out, const Bf16* in, std::size_t n) {
    if (n == 0)
        return;
    toFloatKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(out, in, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("toFloatKernel");
}

void CudaKernels::accumulate(Bf16* dst, const Bf16* src, std::size_t n) {
    if (n == 0)
        return;
    accumulateKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(dst, src, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("accumulateKernel<bf16>");
}

void CudaKernels::accumulate(Bf16* dst, const float* src, std::size_t n) {
    if (n == 0)
        return;
    accumulateKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(dst, src, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("accumulateKernel<float>");
}

void CudaKernels::narrowToBf16InPlace(float* buf, std::size_t n) {
    if (n == 0)
        return;
    const std::size_t head = n < kNarrowHead ? n : kNarrowHead;
    const launch::Geometry g = launch::fixed(1, cuda::kBlock, "narrowHeadKernel");
    narrowHeadKernel<<<g.blocks, g.threads, 0, m_stream>>>(buf, head);
    ZEROLAB_CUDA_CHECK_LAUNCH("narrowHeadKernel");
    for (std::size_t m = head; m < n; m *= 2) {
        const std::size_t end = 2 * m < n ? 2 * m : n;
        narrowRangeKernel<<<cuda::gridFor(end - m), cuda::kBlock, 0, m_stream>>>(buf, m, end);
        ZEROLAB_CUDA_CHECK_LAUNCH("narrowRangeKernel");
    }
}

void CudaKernels::axpy(float* y, float alpha, const float* x, std::size_t n) {
    if (n == 0)
        return;
    axpyKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(y, alpha, x, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("axpyKernel");
}

void CudaKernels::scale(float* x, float s, std::size_t n) {
    if (n == 0)
        return;
    scaleKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(x, s, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("scaleKernel");
}

void CudaKernels::fill(float* x, float value, std::size_t n) {
    if (n == 0)
        return;
    fillKernel<<<cuda::gridFor(n), cuda::kBlock, 0, m_stream>>>(x, value, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("fillKernel");
}

void CudaKernels::zero(float* x, std::size_t n) {
    ZEROLAB_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), m_stream));
}

void CudaKernels::zero(Bf16* x, std::size_t n) {
    ZEROLAB_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(Bf16), m_stream));
}

double CudaKernels::finishSumSquares() {
    const launch::Geometry g = launch::fixed(1, cuda::kBlock, "sumPartialsKernel");
    sumPartialsKernel<<<g.blocks, g.threads, 0, m_stream>>>(reduceTotal(), reducePartials(),
                                                            kReduceBlocks);
    ZEROLAB_CUDA_CHECK_LAUNCH("sumPartialsKernel");
    ZEROLAB_CUDA_CHECK(cudaMemcpyAsync(hostTotal(), reduceTotal(), sizeof(double),
                                       cudaMemcpyDeviceToHost, m_stream));
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    return *hostTotal();
}

// Always kReduceBlocks blocks (idle ones write 0): the partials, and so the rounding of
// the sum, depend only on n.
double CudaKernels::sumSquares(const float* x, std::size_t n) {
    const launch::Geometry g =
        launch::fixed(kReduceBlocks, cuda::kBlock, "sumSquaresPartialKernel<float>");
    sumSquaresPartialKernel<<<g.blocks, g.threads, 0, m_stream>>>(reducePartials(), x, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("sumSquaresPartialKernel<float>");
    return finishSumSquares();
}

double CudaKernels::sumSquares(const Bf16* x, std::size_t n) {
    const launch::Geometry g =
        launch::fixed(kReduceBlocks, cuda::kBlock, "sumSquaresPartialKernel<bf16>");
    sumSquaresPartialKernel<<<g.blocks, g.threads, 0, m_stream>>>(reducePartials(), x, n);
    ZEROLAB_CUDA_CHECK_LAUNCH("sumSquaresPartialKernel<bf16>");
    return finishSumSquares();
}

} // namespace zerolab
