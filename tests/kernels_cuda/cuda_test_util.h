// Helpers for the CUDA kernel tests: the skip when no device exists, device
// buffers owned by a Kernels object, and the "same inputs on both backends"
// pattern (every test compares the CUDA kernels with the CPU kernels).
#pragma once

#include "kernels/cuda/cuda_kernels.h"
#include "kernels/kernels.h"
#include "tests/kernels/test_util.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace zerolab::test {

// Empty when a CUDA device is usable, else the reason for skipping.
inline std::string noCudaDeviceReason() {
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess)
        return std::string("no CUDA device: ") + cudaGetErrorString(rc);
    if (count == 0)
        return "no CUDA device: cudaGetDeviceCount returned 0";
    return {};
}

// A device copy of a host vector, freed with the Kernels that allocated it.
template <typename T> class DeviceVec {
public:
    DeviceVec(Kernels& k, const std::vector<T>& host) : m_k(k), m_n(host.size()) {
        m_p = static_cast<T*>(k.allocate(m_n * sizeof(T)));
        k.copyToDevice(m_p, host.data(), m_n * sizeof(T));
    }
    ~DeviceVec() { m_k.release(m_p); }
    DeviceVec(const DeviceVec&) = delete;
    DeviceVec& operator=(const DeviceVec&) = delete;

    T* get() { return m_p; }
    std::vector<T> host() {
        std::vector<T> out(m_n);
        m_k.copyToHost(out.data(), m_p, m_n * sizeof(T));
        return out;
    }

private:
    Kernels& m_k;
    T* m_p = nullptr;
    std::size_t m_n;
};

// Skips the test without a device; otherwise holds the CUDA kernels on device 0 and the
// CPU reference kernels (cpuThreads threads).
class CudaVsCpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string reason = noCudaDeviceReason();
        if (!reason.empty())
            GTEST_SKIP() << reason;
        gpu = makeCudaKernels(0);
        cpu = makeCpuKernels(cpuThreads);
    }

    // A real-size case (kRealSizeThreads) sets more in its constructor: its CPU reference
    // is hundreds of GFLOP, and gpu-check runs 4 tests at a time on 16 cores.
    int cpuThreads = 2;
    std::unique_ptr<Kernels> gpu;
    std::unique_ptr<Kernels> cpu;
};

// The models' own sizes, for the real-size cases (one per op; names start RealSize/ or end
// RealSize...): GPT-2 124M at B 1 (B*T = 1024 rows) and Llama-3.1-8B at a small B*T. What
// the small shapes cannot show: grids of many blocks over long rows (Vp-wide), cuBLAS at
// the products' own m/n/k, the flash kernels' tile loops over T = 1024 at hs 64 and 128,
// rounding of long sums. Each case is at most about 2 GB of device memory and a few
// seconds of CPU reference.
struct RealSizes {
    static constexpr int kGpt2T = 1024, kGpt2C = 768, kGpt2NH = 12, kGpt2V = 50257, kGpt2Vp = 50304;
    static constexpr int kLlamaC = 4096, kLlamaNH = 32, kLlamaNKV = 8, kLlamaHs = 128,
                         kLlamaF = 14336, kLlamaRows = 128, kLlamaT = 512;
    // The largest GPT-2 unit (wte, Vp x C), for the vector and optimizer ops.
    static constexpr std::size_t kGpt2Wte = std::size_t{kGpt2Vp} * kGpt2C;
};
inline constexpr int kRealSizeThreads = 4;

inline bool sameBits(const std::vector<Bf16>& a, const std::vector<Bf16>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Bf16)) == 0;
}

inline std::vector<float> widen(const std::vector<Bf16>& v) {
    std::vector<float> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = floatFromBf16(v[i]);
    return out;
}

} // namespace zerolab::test
