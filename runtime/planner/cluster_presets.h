// Machine profiles for what cannot be measured here: GPUs from their datasheets (dense
// bf16 and fp32 peaks, memory bandwidth) at an achievable fraction the user can edit, and
// links (NVLink, InfiniBand, Ethernet) by bandwidth and latency. A cluster is hosts x
// ranks per host x the link inside a host x the link between hosts. Sources and the
// defaults' reasons: docs/planner.md, "Presets".
#pragma once

#include "runtime/config/config.h"
#include "runtime/planner/machine_profile.h"

#include <optional>
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
    // Measured and published (docs/planner.md, "GPU physics"): SMs; the best bf16 GEMM's
    // share of the peak (MAMF) and that GEMM's K; flash attention's forward and backward
    // shares of the peak (FlashAttention-2's).
    int sms;
    double matmul_ceiling, ceiling_k;
    double flash_forward, flash_backward;
};

struct LinkPreset {
    std::string_view key;
    std::string_view label;
    double bytes_per_s; // per rank, each direction
    double latency_s;   // per ring step
    // NCCL's achievable bus bandwidth over bytes_per_s (nccl-tests' busbw), in a host.
    double bus_efficiency;
};

const std::vector<GpuPreset>& gpuPresets();
const std::vector<LinkPreset>& linkPresets();
// The preset with this key; nullptr when there is none.
const GpuPreset* findGpuPreset(std::string_view key);
const LinkPreset* findLinkPreset(std::string_view key);

// Of the memory bandwidth elementwise kernels reach (STREAM-like kernels on HBM).
inline constexpr double kDefaultMemoryFraction = 0.7;
// NCCL's bus bandwidth between hosts over the node's NICs' line rate, whatever the NIC
// (ib_write_bw reaches 97% of a port; NCCL's tuner takes 90% of the network's rate).
inline constexpr double kNicBusEfficiency = 0.9;

// A preset profile for `precision` on a GPU preset with the given links (inter: "" for one
// host): its GpuModel (gpu_physics.h) and the rates shape-less callers read. matmul_ceiling:
// the best GEMM's share of the peak, 0 for the preset's measured one (GpuPreset). Throws
// PlanError for an unknown key or a share outside (0, 1].
MachineProfile presetProfile(std::string_view gpu, std::string_view intra, std::string_view inter,
                             Precision precision, double matmul_ceiling = 0,
                             double memory_fraction = kDefaultMemoryFraction);

// The link between hosts as a tuner describes it: a preset's kind of NIC (`network`, a link
// preset's key; its rate is one NIC's, one NIC per GPU as in a DGX unless `nics_per_node`
// says otherwise) and/or a rate with its scope (`rate`, --inter-link's text: per node, per
// GPU or per NIC, bandwidth_units.h). `spec` is what the ring model reads: the rate per GPU
// (the node's rate shared by its GPUs), the preset's latency (kCustomLinkLatencyS without
// one); `description` says it back in words, for the report's assumptions.
struct InterHostLink {
    LinkSpec spec;
    double per_node_bytes_per_s = 0;
    int nics_per_node = 0;
    std::string description;
};
// A ring step's latency between hosts when no preset names one: the InfiniBand presets'.
inline constexpr double kCustomLinkLatencyS = 5e-6;
// Throws PlanError naming --network, --inter-link or --nics-per-node and the value: neither
// `network` nor `rate` given, an unknown preset, a rate without its unit or with an unknown
// unit or scope, a rate <= 0, GPUs per node < 1, NICs < 1 or not dividing the GPUs per node.
InterHostLink interHostLink(std::string_view network, std::string_view rate, int gpus_per_node,
                            std::optional<int> nics_per_node);

// "a100-40, a100-80, ..." and "nvlink3, ib-hdr, ...", for messages and --help.
std::string gpuPresetKeys();
std::string linkPresetKeys();

} // namespace zerolab
