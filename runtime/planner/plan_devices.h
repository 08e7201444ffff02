// Device presets for the planner's verdict: memory as the device reports it
// (nvidia-smi's memory.total), so 80 GB cards hold 80 GiB = 85.9e9 bytes, and the
// default reserve for what a rank holds outside the ledger (docs/planner.md, "Fit"):
// 1 GiB for the CUDA context, cuBLAS workspace and NCCL's buffers, plus 5% of the
// capacity for the caching allocator's fragmentation. Custom devices are built from a
// capacity (and a reserve) in bytes; a CPU run's ranks share this machine's memory.
#pragma once

#include "runtime/planner/planner.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <unistd.h>

namespace zerolab {

struct DevicePreset {
    std::string_view key;
    std::string_view label;
    long long capacity_bytes;
};

inline constexpr long long kMiB = 1024LL * 1024;

// The default reserve of a GPU of `capacity_bytes`: 1 GiB + 5% (see above), rounded
// to whole MiB.
inline constexpr long long defaultGpuReserve(long long capacity_bytes) {
    return 1024 * kMiB + capacity_bytes / 20 / kMiB * kMiB;
}

// V100 32 GB: 32480 MiB, nvidia-smi's total on a Tesla V100-PCIE-32GB (docs/planner.md).
inline constexpr std::array<DevicePreset, 5> kDevicePresets = {{
    {"v100-32", "V100 32 GB", 32480 * kMiB},
    {"a100-40", "A100 40 GB", 40960 * kMiB},
    {"a100-80", "A100 80 GB", 81920 * kMiB},
    {"h100-80", "H100 80 GB", 81559 * kMiB},
    {"h200-141", "H200 141 GB", 143771 * kMiB},
}};

// The GPU a plan assumes when none is named (zerolab-plan's --device default, Setup's
// forecast for a "cuda" config).
inline constexpr std::string_view kDefaultGpuKey = "a100-80";

// "v100-32, a100-40, ...": the preset keys for messages and --help.
inline std::string devicePresetKeys() {
    std::string s;
    for (const auto& d : kDevicePresets)
        s += (s.empty() ? "" : ", ") + std::string(d.key);
    return s;
}

inline std::optional<DeviceCapacity> findDevice(std::string_view key) {
    for (const auto& d : kDevicePresets)
        if (d.key == key)
            return DeviceCapacity{std::string(d.key), std::string(d.label), d.capacity_bytes,
                                  defaultGpuReserve(d.capacity_bytes)};
    return std::nullopt;
}

// Throws PlanError for a capacity below one byte or a reserve outside [0, capacity).
inline DeviceCapacity customDevice(long long capacity_bytes, long long reserve_bytes = 0) {
    if (capacity_bytes < 1)
        throw PlanError("device: custom capacity must be positive, got " +
                        std::to_string(capacity_bytes) + " bytes");
    if (reserve_bytes < 0 || reserve_bytes >= capacity_bytes)
        throw PlanError("device: reserve must be >= 0 and below the capacity, got " +
                        std::to_string(reserve_bytes) + " bytes");
    return DeviceCapacity{"custom", "custom", capacity_bytes, reserve_bytes};
}

// Physical memory of this machine in bytes (0 when unknown).
inline long long hostMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long size = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? 1LL * pages * size : 0;
}

// A rank's share of this machine's memory when `world` ranks run on it (key "host"),
// nothing reserved, under `label`.
inline DeviceCapacity hostDevice(int world, std::string label) {
    return DeviceCapacity{"host", std::move(label),
                          std::max(1LL, hostMemoryBytes() / std::max(1, world)), 0};
}

} // namespace zerolab
