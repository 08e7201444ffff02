// Device presets for the planner's verdict: memory as the device reports it
// (nvidia-smi's memory.total), so 80 GB cards hold 80 GiB = 85.9e9 bytes.
// Custom devices are built from a capacity in bytes.
#pragma once

#include "runtime/planner.h"

#include <array>
#include <optional>
#include <string_view>

namespace zerolab {

struct DevicePreset {
    std::string_view key;
    std::string_view label;
    long long capacity_bytes;
};

inline constexpr long long kMiB = 1024LL * 1024;

inline constexpr std::array<DevicePreset, 4> kDevicePresets = {{
    {"a100-40", "A100 40 GB", 40960 * kMiB},
    {"a100-80", "A100 80 GB", 81920 * kMiB},
    {"h100-80", "H100 80 GB", 81559 * kMiB},
    {"h200-141", "H200 141 GB", 143771 * kMiB},
}};

inline std::optional<DeviceMemory> findDevice(std::string_view key) {
    for (const auto& d : kDevicePresets)
        if (d.key == key)
            return DeviceMemory{std::string(d.key), std::string(d.label), d.capacity_bytes};
    return std::nullopt;
}

// Throws PlanError for a capacity below one byte.
inline DeviceMemory customDevice(long long capacity_bytes) {
    if (capacity_bytes < 1)
        throw PlanError("device: custom capacity must be positive, got " +
                        std::to_string(capacity_bytes) + " bytes");
    return DeviceMemory{"custom", "custom", capacity_bytes};
}

} // namespace zerolab
