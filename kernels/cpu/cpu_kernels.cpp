// CpuKernels construction, the thread setting, and host "device" memory.
#include "kernels/cpu/cpu_kernels.h"

#include <cblas.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace zerolab {

CpuKernels::CpuKernels(int threads) : m_threads(threads) {
    if (threads < 1)
        throw KernelError("makeCpuKernels: threads must be >= 1, got " + std::to_string(threads));
    openblas_set_num_threads(threads);
}

void* CpuKernels::allocate(std::size_t bytes) {
    constexpr std::size_t kAlign = 64; // a cache line, and enough for any vector width
    const std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
    void* p = std::aligned_alloc(kAlign, rounded == 0 ? kAlign : rounded);
    if (p == nullptr)
        throw KernelError("CpuKernels::allocate: out of memory for " + std::to_string(bytes) +
                          " bytes");
    return p;
}

void CpuKernels::release(void* p) {
    std::free(p);
}

void CpuKernels::copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) {
    std::memcpy(dst, hostSrc, bytes);
}

void CpuKernels::copyToHost(void* hostDst, const void* src, std::size_t bytes) {
    std::memcpy(hostDst, src, bytes);
}

void CpuKernels::copyOnDevice(void* dst, const void* src, std::size_t bytes) {
    std::memmove(dst, src, bytes);
}

void CpuKernels::fillZero(void* p, std::size_t bytes) {
    std::memset(p, 0, bytes);
}

std::unique_ptr<Kernels> makeCpuKernels(int threads) {
    return std::make_unique<CpuKernels>(threads);
}

} // namespace zerolab
