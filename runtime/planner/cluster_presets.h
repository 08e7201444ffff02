// Machine profiles for what cannot be measured here: GPUs from their datasheets (dense
// bf16 and fp32 peaks, memory bandwidth) at an achievable fraction the user can edit, and
// links (NVLink, InfiniBand, Ethernet) by bandwidth and latency. A cluster is hosts x
// ranks per host x the link inside a host x the link between hosts. Sources and the
// defaults' reasons: docs/planner.md, "Presets".
#pragma once

#include "runtime/config/config.h"
#include "runtime/planner/machine_profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

struct GpuPreset {
    std::string_view key; // a key of plan_devices.h (not every device has a time preset)
    std::string_view label;
    double bf16_flops; // dense tensor-core peak
    double fp32_flops; // non-tensor fp32 peak
    double memory_bytes_per_s;
    std::string_view intra_link; // the link its NVSwitch systems have
};

struct LinkPreset {
    std::string_view key;
    std::string_view label;
    double bytes_per_s; // per rank, each direction
    double latency_s;   // per ring step
};

const std::vector<GpuPreset>& gpuPresets();
const std::vector<LinkPreset>& linkPresets();
// The preset with this key; nullptr when there is none.
const GpuPreset* findGpuPreset(std::string_view key);
const LinkPreset* findLinkPreset(std::string_view key);

// Of the peak a training step's matmuls reach (Megatron-LM reports 40-55% of the bf16 peak
// on A100s for GPT models at scale), and of the memory bandwidth elementwise kernels reach.
inline constexpr double kDefaultMatmulFraction = 0.5;
inline constexpr double kDefaultMemoryFraction = 0.7;

// A preset profile for `precision` on a GPU preset with the given links (inter: "" for one
// host). Throws PlanError for an unknown key or a fraction outside (0, 1].
MachineProfile presetProfile(std::string_view gpu, std::string_view intra, std::string_view inter,
                             Precision precision, double matmul_fraction = kDefaultMatmulFraction,
                             double memory_fraction = kDefaultMemoryFraction);

// "a100-40, a100-80, ..." and "nvlink3, ib-hdr, ...", for messages and --help.
std::string gpuPresetKeys();
std::string linkPresetKeys();

} // namespace zerolab
