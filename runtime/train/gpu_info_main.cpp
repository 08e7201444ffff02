// zerolab-gpu-info: one JSON line per CUDA device (name, compute capability,
// memory, and the peak FLOP/s the device table knows, null when it does not), for
// scripts/gpu-check's MFU figures. Exit 0 with devices, 1 without (reason on stderr).
#include "runtime/train/device_info.h"

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

namespace {

nlohmann::json peakOrNull(std::optional<double> peak) {
    return peak ? nlohmann::json(*peak) : nlohmann::json(nullptr);
}

} // namespace

int main() {
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        std::cerr << "zerolab-gpu-info: no CUDA device: "
                  << (rc != cudaSuccess ? cudaGetErrorString(rc) : "cudaGetDeviceCount returned 0")
                  << "\n";
        return 1;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        const cudaError_t prc = cudaGetDeviceProperties(&prop, d);
        if (prc != cudaSuccess) {
            std::cerr << "zerolab-gpu-info: cudaGetDeviceProperties(" << d
                      << ") failed: " << cudaGetErrorString(prc) << "\n";
            return 1;
        }
        const auto entry = zerolab::findDevicePeak(prop.name);
        nlohmann::json j{
            {"device", d},
            {"name", prop.name},
            {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
            {"memory_bytes", prop.totalGlobalMem},
            {"table_entry", entry ? nlohmann::json(std::string(entry->label)) : nullptr},
            {"peak_bf16_flops",
             peakOrNull(zerolab::devicePeakFlops(prop.name, zerolab::PeakPrecision::Bf16))},
            {"peak_tf32_flops",
             peakOrNull(zerolab::devicePeakFlops(prop.name, zerolab::PeakPrecision::Tf32))},
            {"peak_fp32_flops",
             peakOrNull(zerolab::devicePeakFlops(prop.name, zerolab::PeakPrecision::Fp32))}};
        std::cout << j.dump() << "\n";
    }
    return 0;
}
