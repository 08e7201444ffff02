// CudaKernels construction, device memory, copies, the error reporting of
// cuda_check.h and the scratch buffers the ops share. Host code only: the
// kernels live in the .cu files of this folder.
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/cuda_check.h"

#include <string>

namespace zerolab {

namespace cuda {

namespace {

std::string where(const char* call, const char* file, int line) {
    return std::string(file) + ":" + std::to_string(line) + ": " + call;
}

} // namespace

void throwCudaError(cudaError_t rc, const char* call, const char* file, int line) {
    throw KernelError(where(call, file, line) + " failed: " + cudaGetErrorName(rc) + " (" +
                      cudaGetErrorString(rc) + ")");
}

void throwCublasError(cublasStatus_t rc, const char* call, const char* file, int line) {
    throw KernelError(where(call, file, line) + " failed: " + cublasGetStatusName(rc) + " (" +
                      cublasGetStatusString(rc) + ")");
}

} // namespace cuda

CudaKernels::CudaKernels(int device, MatmulMath math) : m_device(device), m_math(math) {
    int count = 0;
    ZEROLAB_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count)
        throw KernelError("makeCudaKernels: device " + std::to_string(device) +
                          " does not exist (" + std::to_string(count) + " CUDA devices)");
    ZEROLAB_CUDA_CHECK(cudaSetDevice(device));
    // Non-blocking: the stream never waits for the legacy default stream, so a NCCL
    // stream ordered by events can overlap it.
    ZEROLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
    ZEROLAB_CUDA_CHECK(cublasCreate(&m_blas));
    ZEROLAB_CUDA_CHECK(cublasSetStream(m_blas, m_stream));
    // Full fp32 products (no TF32), the precision the CPU kernels and their tests assume.
    ZEROLAB_CUDA_CHECK(cublasSetMathMode(m_blas, CUBLAS_DEFAULT_MATH));
    ZEROLAB_CUDA_CHECK(cudaMalloc(&m_reduce, (kReduceBlocks + 2) * sizeof(double)));
    ZEROLAB_CUDA_CHECK(cudaMallocHost(&m_hostReduce, 2 * sizeof(double)));
}

CudaKernels::~CudaKernels() {
    // Destructors cannot throw: errors here (a sticky fault from an earlier kernel) were
    // already reported by the call that met them.
    cudaStreamSynchronize(m_stream);
    cudaFree(m_ones);
    cudaFree(m_scratch);
    for (Bf16* p : m_bf16Scratch)
        cudaFree(p);
    cudaFreeHost(m_hostReduce);
    cudaFree(m_reduce);
    cublasDestroy(m_blas);
    cudaStreamDestroy(m_stream);
}

void* CudaKernels::allocate(std::size_t bytes) {
    // cudaMalloc aligns to 256 bytes, more than the interface's 64.
    void* p = nullptr;
    const cudaError_t rc = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
    if (rc != cudaSuccess)
        throw KernelError("CudaKernels::allocate: cudaMalloc of " + std::to_string(bytes) +
                          " bytes on device " + std::to_string(m_device) +
                          " failed: " + cudaGetErrorString(rc));
    return p;
}

void CudaKernels::release(void* p) {
    // cudaFree waits for the device: work still queued may be using p.
    ZEROLAB_CUDA_CHECK(cudaFree(p));
}

void CudaKernels::copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) {
    ZEROLAB_CUDA_CHECK(cudaMemcpyAsync(dst, hostSrc, bytes, cudaMemcpyHostToDevice, m_stream));
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

void CudaKernels::copyToHost(void* hostDst, const void* src, std::size_t bytes) {
    ZEROLAB_CUDA_CHECK(cudaMemcpyAsync(hostDst, src, bytes, cudaMemcpyDeviceToHost, m_stream));
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

void CudaKernels::copyOnDevice(void* dst, const void* src, std::size_t bytes) {
    ZEROLAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, m_stream));
}

std::string CudaKernels::deviceName() const {
    cudaDeviceProp prop{};
    ZEROLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, m_device));
    return prop.name;
}

void CudaKernels::fillZero(void* p, std::size_t bytes) {
    ZEROLAB_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, m_stream));
}

std::optional<DeviceMemory> CudaKernels::deviceMemory() {
    std::size_t freeBytes = 0, totalBytes = 0;
    ZEROLAB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return DeviceMemory{static_cast<long long>(totalBytes - freeBytes),
                        static_cast<long long>(totalBytes)};
}

void CudaKernels::synchronize() {
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

namespace {

// Grows a device buffer to at least n elements; the old one is freed once the stream is
// idle (a queued kernel may still read it). True when it was reallocated.
template <typename T>
bool growDevice(T*& buf, std::size_t& count, std::size_t n, cudaStream_t stream) {
    if (n <= count)
        return false;
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    ZEROLAB_CUDA_CHECK(cudaFree(buf));
    buf = nullptr;
    count = 0;
    ZEROLAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&buf), n * sizeof(T)));
    count = n;
    return true;
}

} // namespace

float* CudaKernels::scratchFloats(std::size_t n) {
    growDevice(m_scratch, m_scratchCount, n, m_stream);
    return m_scratch;
}

Bf16* CudaKernels::bf16Scratch(int slot, std::size_t n) {
    growDevice(m_bf16Scratch[slot], m_bf16ScratchCount[slot], n, m_stream);
    return m_bf16Scratch[slot];
}

const float* CudaKernels::ones(std::size_t n) {
    // The fill is a kernel on m_stream, ahead of the gemv that reads it on the same
    // stream. A cudaMemcpy here ran on the legacy default stream, which a non-blocking
    // stream does not wait for, and returns from pageable memory before its DMA lands:
    // the first layernorm dweight/dbias or Linear dbias could read the buffer unfilled.
    if (growDevice(m_ones, m_onesCount, n, m_stream))
        fill(m_ones, 1.0f, n);
    return m_ones;
}

std::unique_ptr<Kernels> makeCudaKernels(int device, MatmulMath math) {
    return std::make_unique<CudaKernels>(device, math);
}

} // namespace zerolab
