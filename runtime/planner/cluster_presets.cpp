// The GPU and link presets and their profiles (cluster_presets.h).
#include "runtime/planner/cluster_presets.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/gpu_physics.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"

#include <cmath>

namespace zerolab {

const std::vector<GpuPreset>& gpuPresets() {
    // NVIDIA A100 datasheet (SXM): 312 TFLOP/s bf16 dense, 19.5 fp32, 1555 GB/s (40 GB)
    // and 2039 GB/s (80 GB); H100 SXM: 989 bf16 dense, 67 fp32, 3.35 TB/s; H200 SXM: 989,
    // 67, 4.8 TB/s.
    // SMs: 108 (A100), 132 (H100, H200). The GEMM ceiling: Bekman's Maximum Achievable
    // Matmul FLOPS (ml-engineering, compute/accelerator): A100 SXM 271.2 of 312 (86.9%) at
    // 1024x10240x5120, H100 SXM 794.5 of 989 (80.3%) at 2048x2048x13312, "H200 is the
    // same". Flash attention: FlashAttention-2 reaches 50-73% of the A100's peak forward
    // (Dao 2023), taken 60%, its backward (below its forward in the paper) 48%; on H100 it
    // reaches 35% (Shah et al. 2024, FlashAttention-3's introduction), its backward 30%.
    static const std::vector<GpuPreset> kGpus = {
        {"a100-40", "A100 40 GB", 312e12, 19.5e12, 1555e9, "nvlink3", 108, 0.869, 5120, 0.60, 0.48},
        {"a100-80", "A100 80 GB", 312e12, 19.5e12, 2039e9, "nvlink3", 108, 0.869, 5120, 0.60, 0.48},
        {"h100-80", "H100 80 GB", 989e12, 67e12, 3350e9, "nvlink4", 132, 0.803, 13312, 0.35, 0.30},
        {"h200-141", "H200 141 GB", 989e12, 67e12, 4800e9, "nvlink4", 132, 0.803, 13312, 0.35,
         0.30},
    };
    return kGpus;
}

const std::vector<LinkPreset>& linkPresets() {
    // Per direction per GPU: NVLink 3 600 GB/s and NVLink 4 900 GB/s bidirectional
    // (NVSwitch: every GPU at full rate); InfiniBand HDR 200 Gb/s, NDR 400 Gb/s per port, one
    // port per GPU as in a DGX; Ethernet 100 and 400 Gb/s. Latencies: a ring step's, NCCL's
    // order of magnitude (a few microseconds on NVLink and InfiniBand, tens over TCP/IP);
    // a GPU preset's forecast takes NCCL's instead (gpu_physics.h). Bus efficiency: NCCL's
    // busbw over the rate, 8 GPUs (ml-engineering, network/README.md): A100 NVLink 3 234.9
    // of 300 GB/s (78%), H200 NVLink 4 ring all-gather 361.4 of 450 (80%); NICs kNicBus-
    // Efficiency.
    static const std::vector<LinkPreset> kLinks = {
        {"nvlink3", "NVLink 3 / NVSwitch (300 GB/s each way)", 300e9, 3e-6, 0.78},
        {"nvlink4", "NVLink 4 / NVSwitch (450 GB/s each way)", 450e9, 3e-6, 0.80},
        {"ib-hdr", "InfiniBand HDR (200 Gb/s)", 25e9, 5e-6, kNicBusEfficiency},
        {"ib-ndr", "InfiniBand NDR (400 Gb/s)", 50e9, 5e-6, kNicBusEfficiency},
        {"eth-100g", "100 Gb Ethernet", 12.5e9, 20e-6, kNicBusEfficiency},
        {"eth-400g", "400 Gb Ethernet", 50e9, 20e-6, kNicBusEfficiency},
    };
    return kLinks;
}

const GpuPreset* findGpuPreset(std::string_view key) {
    for (const GpuPreset& g : gpuPresets())
        if (g.key == key)
            return &g;
    return nullptr;
}

const LinkPreset* findLinkPreset(std::string_view key) {
    for (const LinkPreset& l : linkPresets())
        if (l.key == key)
            return &l;
    return nullptr;
}

std::string gpuPresetKeys() {
    std::string s;
    for (const GpuPreset& g : gpuPresets())
        s += (s.empty() ? "" : ", ") + std::string(g.key);
    return s;
}

std::string linkPresetKeys() {
    std::string s;
    for (const LinkPreset& l : linkPresets())
        s += (s.empty() ? "" : ", ") + std::string(l.key);
    return s;
}

namespace {

LinkSpec linkSpec(std::string_view key, const char* what) {
    if (const LinkPreset* l = findLinkPreset(key))
        return {std::string(l->key), std::string(l->label), l->bytes_per_s, l->latency_s};
    throw PlanError(std::string(what) + ": unknown link '" + std::string(key) + "' (" +
                    linkPresetKeys() + ")");
}

} // namespace

InterHostLink interHostLink(std::string_view network, std::string_view rate, int gpus_per_node,
                            std::optional<int> nics_per_node) {
    if (gpus_per_node < 1)
        throw PlanError("GPUs per host must be at least 1, got " + std::to_string(gpus_per_node));
    if (nics_per_node && *nics_per_node < 1)
        throw PlanError("--nics-per-node " + std::to_string(*nics_per_node) +
                        ": a host needs at least one NIC");
    if (nics_per_node && gpus_per_node % *nics_per_node != 0)
        throw PlanError("--nics-per-node " + std::to_string(*nics_per_node) +
                        " does not divide the " + std::to_string(gpus_per_node) +
                        " GPUs a host (--world / --hosts): each NIC serves the same number of "
                        "GPUs");
    if (network.empty() && rate.empty())
        throw PlanError("say the link between hosts with --network (" + linkPresetKeys() +
                        ") or --inter-link (e.g. 400Gb/s/node)");
    InterHostLink out;
    out.spec = network.empty() ? LinkSpec{"custom", "", 0, kCustomLinkLatencyS}
                               : linkSpec(network, "--network");
    // One NIC per GPU unless told: the presets' rates are one port's, a port per GPU as in
    // a DGX A100/H100.
    const int nics = nics_per_node.value_or(gpus_per_node);
    out.nics_per_node = nics;
    const std::string gpus = std::to_string(gpus_per_node) + " GPUs a node";
    const std::string nic_count =
        std::to_string(nics) + (nics == 1 ? " NIC" : " NICs") + " a node" +
        (nics_per_node ? "" : " (one per GPU; --nics-per-node to change)");
    double per_nic = out.spec.bytes_per_s; // a preset's port
    LinkScope per = LinkScope::Nic;
    if (!rate.empty()) {
        const LinkRate r = parseLinkRate(rate, "--inter-link");
        per = r.per;
        per_nic = r.bytes_per_s;
        out.per_node_bytes_per_s = r.per == LinkScope::Node  ? r.bytes_per_s
                                   : r.per == LinkScope::Gpu ? r.bytes_per_s * gpus_per_node
                                                             : r.bytes_per_s * nics;
    } else {
        out.per_node_bytes_per_s = per_nic * nics;
    }
    const double per_gpu = out.per_node_bytes_per_s / gpus_per_node;
    const std::string node = formatBits(out.per_node_bytes_per_s) + " per node";
    const std::string gpu = formatBits(per_gpu) + " per GPU";
    std::string said;
    switch (per) {
    case LinkScope::Node:
        said = node + " = " + gpu + " with " + gpus;
        break;
    case LinkScope::Gpu:
        said = gpu + " = " + node + " with " + gpus;
        break;
    case LinkScope::Nic:
        said = formatBits(per_nic) + " per NIC x " + nic_count + " = " + node + " = " + gpu +
               " with " + gpus;
        break;
    }
    out.description =
        "inter-host link: " + (rate.empty() ? out.spec.key + " (" + out.spec.label + "), " : "") +
        said;
    // A GPU preset's collectives take NCCL's latencies whatever the link (gpu_physics.h);
    // the link's own latency stays in the spec for profiles without a GPU model.
    out.description += "; NCCL's latency (" + threeDigits(kNcclBaseLatencyUs) +
                       " us a collective, " + threeDigits(kNcclRingNetStepUs) +
                       " us a ring step between hosts) and bus bandwidth (" +
                       threeDigits(kNicBusEfficiency * 100) + "% of the NICs' rate)";
    out.spec.bytes_per_s = per_gpu;
    if (network.empty() || !rate.empty() || nics_per_node)
        out.spec.label = node + ", " + gpu;
    return out;
}

MachineProfile presetProfile(std::string_view gpu, std::string_view intra, std::string_view inter,
                             Precision precision, double matmul_ceiling, double memory_fraction) {
    const GpuPreset* g = findGpuPreset(gpu);
    if (!g)
        throw PlanError("--device: no time preset for '" + std::string(gpu) + "' (" +
                        gpuPresetKeys() + ")");
    if (matmul_ceiling == 0)
        matmul_ceiling = g->matmul_ceiling;
    for (const double f : {matmul_ceiling, memory_fraction})
        if (!std::isfinite(f) || f <= 0 || f > 1)
            throw PlanError("achievable fraction must be in (0, 1], got " + std::to_string(f));
    MachineProfile p;
    p.source = "preset";
    p.name = std::string(g->key);
    p.cores = 1 << 20; // a GPU per rank: no sharing
    const bool bf16 = precision == Precision::Bf16Mixed;
    const double peak = bf16 ? g->bf16_flops : g->fp32_flops;
    p.peak_flops = peak;
    p.intra_link = linkSpec(intra.empty() ? g->intra_link : intra, "--intra-link");
    if (!inter.empty())
        p.inter_link = linkSpec(inter, "--network");
    GpuModel m;
    m.peak_flops = peak;
    m.matmul_ceiling = matmul_ceiling;
    m.ceiling_k = g->ceiling_k;
    m.sms = g->sms;
    m.memory_bytes_per_s = g->memory_bytes_per_s;
    m.memory_fraction = memory_fraction;
    m.flash_forward = g->flash_forward;
    m.flash_backward = g->flash_backward;
    m.activation_bytes = bf16 ? 2 : 4;
    m.intra_bus_efficiency = findLinkPreset(p.intra_link->key)->bus_efficiency;
    m.inter_bus_efficiency = kNicBusEfficiency;
    p.gpu = m;
    // The rates the kinds without a shape are priced at: matmuls at the ceiling (their
    // shapes go through gpu_physics.h), flash attention at its shares, every other kernel
    // by the bytes it moves at the activation dtype.
    const double bytes_per_s = g->memory_bytes_per_s * memory_fraction;
    for (std::size_t i = 0; i < kOpKindCount; ++i) {
        const auto k = static_cast<OpKind>(i);
        p.rates[i] = opCountsFlops(k) ? peak * matmul_ceiling
                                      : bytes_per_s / elementwiseBytes(k, m.activation_bytes);
    }
    p.rates[static_cast<std::size_t>(OpKind::FlashAttentionForward)] = peak * m.flash_forward;
    p.rates[static_cast<std::size_t>(OpKind::FlashAttentionBackward)] = peak * m.flash_backward;
    return p;
}

} // namespace zerolab
