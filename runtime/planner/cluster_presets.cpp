// The GPU and link presets and their profiles (cluster_presets.h).
#include "runtime/planner/cluster_presets.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"

#include <cmath>

namespace zerolab {

const std::vector<GpuPreset>& gpuPresets() {
    // NVIDIA A100 datasheet (SXM): 312 TFLOP/s bf16 dense, 19.5 fp32, 1555 GB/s (40 GB)
    // and 2039 GB/s (80 GB); H100 SXM: 989 bf16 dense, 67 fp32, 3.35 TB/s; H200 SXM: 989,
    // 67, 4.8 TB/s.
    static const std::vector<GpuPreset> kGpus = {
        {"a100-40", "A100 40 GB", 312e12, 19.5e12, 1555e9, "nvlink3"},
        {"a100-80", "A100 80 GB", 312e12, 19.5e12, 2039e9, "nvlink3"},
        {"h100-80", "H100 80 GB", 989e12, 67e12, 3350e9, "nvlink4"},
        {"h200-141", "H200 141 GB", 989e12, 67e12, 4800e9, "nvlink4"},
    };
    return kGpus;
}

const std::vector<LinkPreset>& linkPresets() {
    // Per direction per GPU: NVLink 3 600 GB/s and NVLink 4 900 GB/s bidirectional
    // (NVSwitch: every GPU at full rate); InfiniBand HDR 200 Gb/s, NDR 400 Gb/s per port, one
    // port per GPU as in a DGX; Ethernet 100 and 400 Gb/s. Latencies: a ring step's, NCCL's
    // order of magnitude (a few microseconds on NVLink and InfiniBand, tens over TCP/IP).
    static const std::vector<LinkPreset> kLinks = {
        {"nvlink3", "NVLink 3 / NVSwitch (300 GB/s each way)", 300e9, 3e-6},
        {"nvlink4", "NVLink 4 / NVSwitch (450 GB/s each way)", 450e9, 3e-6},
        {"ib-hdr", "InfiniBand HDR (200 Gb/s)", 25e9, 5e-6},
        {"ib-ndr", "InfiniBand NDR (400 Gb/s)", 50e9, 5e-6},
        {"eth-100g", "100 Gb Ethernet", 12.5e9, 20e-6},
        {"eth-400g", "400 Gb Ethernet", 50e9, 20e-6},
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
    if (network.empty())
        out.description += "; latency " + formatSeconds(kCustomLinkLatencyS) +
                           " a ring step (the InfiniBand presets'; --network L takes L's)";
    else if (!rate.empty())
        out.description += "; latency " + formatSeconds(out.spec.latency_s) + " a ring step (" +
                           out.spec.key + "'s)";
    out.spec.bytes_per_s = per_gpu;
    if (network.empty() || !rate.empty() || nics_per_node)
        out.spec.label = node + ", " + gpu;
    return out;
}

MachineProfile presetProfile(std::string_view gpu, std::string_view intra, std::string_view inter,
                             Precision precision, double matmul_fraction, double memory_fraction) {
    const GpuPreset* g = findGpuPreset(gpu);
    if (!g)
        throw PlanError("--device: no time preset for '" + std::string(gpu) + "' (" +
                        gpuPresetKeys() + ")");
    for (const double f : {matmul_fraction, memory_fraction})
        if (!std::isfinite(f) || f <= 0 || f > 1)
            throw PlanError("achievable fraction must be in (0, 1], got " + std::to_string(f));
    MachineProfile p;
    p.source = "preset";
    p.name = std::string(g->key);
    p.cores = 1 << 20; // a GPU per rank: no sharing
    const double peak = precision == Precision::Bf16Mixed ? g->bf16_flops : g->fp32_flops;
    p.peak_flops = peak;
    // Elementwise kernels move about 16 bytes an element (fp32 in and out, with their
    // gradients); AdamW about 32 (params, grads, m, v read; params, m, v written).
    const double elements = g->memory_bytes_per_s * memory_fraction / 16;
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        p.rates[i] = opCountsFlops(static_cast<OpKind>(i)) ? peak * matmul_fraction : elements;
    p.rates[static_cast<std::size_t>(OpKind::Adamw)] = elements / 2;
    p.rates[static_cast<std::size_t>(OpKind::AdamwMixed)] = elements / 2;
    p.intra_link = linkSpec(intra.empty() ? g->intra_link : intra, "--intra-link");
    if (!inter.empty())
        p.inter_link = linkSpec(inter, "--network");
    return p;
}

} // namespace zerolab
