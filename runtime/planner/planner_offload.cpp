// ZeRO-Offload's forecast. offload_optimizer (stages 1-3) runs Adam on the host: the fp32
// master, m and v live there (or on NVMe), and from stage 2 the gradient shard the host
// step reads is copied there instead of kept on the device. offload_param (stage 3) keeps
// the rank's parameter shard off the device, fetched for each gather. What moves keeps
// its size: device + offloaded is the ledger's (offload is forecast, not run).
#include "runtime/planner/planner_offload.h"

#include "runtime/model/model_flops.h"
#include "runtime/planner/planner_units.h"

#include <algorithm>
#include <cstdio>

namespace zerolab {

namespace {

void move(StagePlan& sp, MemCategory c, OffloadDevice to) {
    const long long b = sp.per_rank[c];
    sp.per_rank[c] = 0;
    sp.offloaded[c] += b;
    (to == OffloadDevice::Nvme ? sp.nvme_bytes : sp.host_bytes) += b;
}

bool optimizerApplies(const PlanInput& in, int stage) {
    return in.offload_optimizer != OffloadDevice::None && stage >= 1;
}

bool paramApplies(const PlanInput& in, int stage) {
    return in.offload_param != OffloadDevice::None && stage == 3;
}

// DeepSpeed's largest layer (model_to_params: the most parameters one module owns), as
// the family counts it (model_flops.h); 0 without a shape.
double largestLayer(const PlanInput& in) {
    return in.shape ? largestModuleParams(*in.shape) : 0;
}

} // namespace

bool offloadApplies(const PlanInput& in, int stage) {
    return optimizerApplies(in, stage) || paramApplies(in, stage);
}

void applyOffload(const PlanInput& in, const StateBytes& b, std::int64_t padded, StagePlan& sp) {
    sp.ranks_per_node = in.ranks_per_node > 0 ? std::min(in.ranks_per_node, in.world) : in.world;
    const bool opt = optimizerApplies(in, sp.stage), par = paramApplies(in, sp.stage);
    if (!opt && !par)
        return;
    if (opt) {
        move(sp, MemCategory::MasterParams, in.offload_optimizer);
        move(sp, MemCategory::OptimM, in.offload_optimizer);
        move(sp, MemCategory::OptimV, in.offload_optimizer);
        // The host step reads the gradient shard: DeepSpeed keeps it in pinned CPU memory
        // whatever the optimizer's device.
        if (sp.stage >= 2)
            move(sp, MemCategory::Grads, OffloadDevice::Cpu);
    }
    if (par)
        move(sp, MemCategory::Params, in.offload_param);
    sp.total_bytes = sp.per_rank.total();
    sp.host_bytes_per_node = sp.host_bytes * sp.ranks_per_node;
    sp.nvme_bytes_per_node = sp.nvme_bytes * sp.ranks_per_node;

    // PCIe per optimizer step: the gradient shard down to the host (every micro-step
    // where grads are reduce-scattered per micro-step, stages 2-3), the parameter shard
    // up for each forward and backward gather (offload_param), and the updated shard
    // copied across once where the optimizer and the parameters sit on different sides.
    const double shard = static_cast<double>(padded) / in.world;
    const double A = in.grad_accumulation;
    double pcie = 0;
    if (opt)
        pcie += (sp.stage >= 2 ? A : 1) * shard * b.grad;
    if (par)
        pcie += 2 * A * shard * b.param;
    if (opt != par)
        pcie += shard * b.param;
    sp.pcie_bytes = pcie;
    sp.pcie_seconds = pcie / (in.pcie_gbps * 1e9);
}

std::vector<Message> offloadExplainLines(const Plan& p, const StagePlan& sp, ByteUnit unit) {
    const PlanInput& in = p.input;
    std::vector<Message> out;
    if (!offloadApplies(in, sp.stage)) {
        if (in.offload_optimizer != OffloadDevice::None || in.offload_param != OffloadDevice::None)
            out.emplace_back(ZEROLAB_TR("PlanExplain",
                                        "Offload: none at this stage (offload_optimizer needs "
                                        "stage 1-3, offload_param stage 3)"));
        return out;
    }
    auto bytes = [&](double v) { return formatBytes(v, unit); };
    const std::string n = std::to_string(in.world);
    out.emplace_back(std::string());
    out.emplace_back(
        ZEROLAB_TR("PlanExplain", "ZeRO-Offload (forecast; zerolab's runtime does not offload):"));
    for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
        if (sp.offloaded.bytes[c] == 0)
            continue;
        const auto cat = static_cast<MemCategory>(c);
        const bool param = cat == MemCategory::Params;
        const OffloadDevice to = cat == MemCategory::Grads ? OffloadDevice::Cpu
                                 : param                   ? in.offload_param
                                                           : in.offload_optimizer;
        out.emplace_back(
            ZEROLAB_TR("PlanExplain", "  %1: %2 moves to %3 (%4)"),
            std::vector<Message>{std::string(memCategoryName(cat)),
                                 bytes(static_cast<double>(sp.offloaded.bytes[c])),
                                 to == OffloadDevice::Nvme
                                     ? Message(std::string("NVMe"))
                                     : Message(ZEROLAB_TR("PlanExplain", "host memory")),
                                 std::string(param ? "offload_param" : "offload_optimizer")});
    }
    out.emplace_back(ZEROLAB_TR("PlanExplain", "  per rank: device %1, host memory %2, NVMe %3"),
                     std::vector<Message>{bytes(static_cast<double>(sp.total_bytes)),
                                          bytes(static_cast<double>(sp.host_bytes)),
                                          bytes(static_cast<double>(sp.nvme_bytes))});
    out.emplace_back(ZEROLAB_TR("PlanExplain", "  per node (%1 ranks): host memory %2, NVMe %3"),
                     std::vector<Message>{std::to_string(sp.ranks_per_node),
                                          bytes(static_cast<double>(sp.host_bytes_per_node)),
                                          bytes(static_cast<double>(sp.nvme_bytes_per_node))});
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.4g", sp.pcie_seconds);
    out.emplace_back(
        ZEROLAB_TR("PlanExplain", "  PCIe per step (grad shard down, params up) = %1 = %2 s at "
                                  "%3 GB/s"),
        std::vector<Message>{bytes(sp.pcie_bytes), std::string(secs), formatPsi(in.pcie_gbps)});

    // DeepSpeed's estimators for the same psi, ranks and nodes (stage_1_and_2.py and
    // stage3.py, additional_buffer_factor 1.5, zero_init).
    const double psi = static_cast<double>(p.psi);
    const double gpus = in.world, per_node = sp.ranks_per_node;
    const double nodes = std::max(1.0, gpus / per_node);
    double ds_gpu = 0, ds_cpu = 0;
    Message estimator;
    if (sp.stage < 3) {
        ds_gpu = 2 * psi;
        ds_cpu = psi * std::max(4 * gpus, 16.0) * 1.5;
        estimator =
            Message(ZEROLAB_TR("PlanExplain", "  DeepSpeed's estimate_zero2_model_states_mem_needs "
                                              "(cpu_offload): GPU 2 psi = %1, "
                                              "CPU psi x max(4 x %2, 16) x 1.5 = %3 per node"),
                    {bytes(ds_gpu), n, bytes(ds_cpu)});
    } else {
        const double ll = 4 * largestLayer(in);
        const bool both = paramApplies(in, 3) && optimizerApplies(in, 3);
        ds_gpu = both ? ll : ll + 2 * psi / gpus;
        ds_cpu = psi * (paramApplies(in, 3) ? 18 : 16) / nodes * 1.5;
        estimator =
            both ? Message(ZEROLAB_TR("PlanExplain",
                                      "  DeepSpeed's estimate_zero3_model_states_mem_needs "
                                      "(offload_param + offload_optimizer): GPU 4 x largest "
                                      "layer = %1, CPU 18 psi / nodes x 1.5 = %2 per node"),
                           {bytes(ds_gpu), bytes(ds_cpu)})
                 : Message(ZEROLAB_TR("PlanExplain",
                                      "  DeepSpeed's estimate_zero3_model_states_mem_needs: GPU 4 "
                                      "x largest layer + 2 psi / N = %1, CPU %2 psi / nodes x 1.5 "
                                      "= %3 per node"),
                           {bytes(ds_gpu), std::string(paramApplies(in, 3) ? "18" : "16"),
                            bytes(ds_cpu)});
    }
    out.push_back(estimator);
    out.emplace_back(ZEROLAB_TR(
        "PlanExplain",
        "  They differ from the forecast above: their multipliers assume fp16 parameters with "
        "fp32 gradients, master, m and v (18 bytes a parameter, 16 without the fp16 "
        "gradients), where zerolab counts its own dtypes and shards; their 1.5 stands for "
        "pinned buffers zerolab does not hold; the largest layer stands for the gather "
        "buffers, which zerolab sizes exactly (comm buffers above); they count no "
        "activations, comm buckets or workspace; and their CPU figure is per node with the "
        "rank count folded into a max(), not per rank"));
    return out;
}

} // namespace zerolab
