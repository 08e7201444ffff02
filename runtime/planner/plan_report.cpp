// A Plan for programs (toJson: the `stages` array of the contract) and for
// people (formatTable: stages 0-3 side by side, the byte unit in the header, the
// verdict and the chapter's errata underneath).
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"

#include <cstdio>
#include <sstream>
#include <string>

namespace zerolab {

namespace {

nlohmann::json optionalInt(const std::optional<int>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json inputJson(const PlanInput& in) {
    nlohmann::json j = {
        {"params", in.params},
        {"world", in.world},
        {"stage", in.stage},
        {"precision", toString(in.precision)},
        {"master_weights", in.master_weights},
        {"grad_accum_fp32", in.grad_accum_fp32},
        {"convention", conventionName(in.convention)},
        {"micro_batch", in.micro_batch},
        {"seq_len", in.seq_len},
        {"recompute", recomputeName(in.recompute)},
        {"reduce_bucket_size", in.reduce_bucket_elements},
        {"allgather_bucket_size", in.allgather_bucket_elements},
        {"gradient_accumulation_steps", in.grad_accumulation},
        {"overlap_comm", in.overlap_comm},
        {"bandwidth_gbps", in.bandwidth_gbps},
        {"offload_optimizer", toString(in.offload_optimizer)},
        {"offload_param", toString(in.offload_param)},
        {"ranks_per_node", in.ranks_per_node},
        {"pcie_gbps", in.pcie_gbps},
        {"device",
         {{"key", in.device.key},
          {"label", in.device.label},
          {"capacity_bytes", in.device.capacity_bytes},
          {"reserve_bytes", in.device.reserve_bytes}}},
    };
    if (in.shape)
        j["shape"] = {{"n_layer", in.shape->n_layer},
                      {"n_head", in.shape->n_head},
                      {"n_embd", in.shape->n_embd},
                      {"seq_len", in.shape->seq_len},
                      {"vocab_size", in.shape->vocab_size},
                      {"padded_vocab_size", in.shape->padded_vocab_size}};
    if (in.activation_bytes)
        j["activation_bytes"] = *in.activation_bytes;
    return j;
}

nlohmann::json byRecompute(const ActivationBytes& bytes) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t m = 0; m < kRecomputeNames.size(); ++m)
        j[std::string(kRecomputeNames[m])] = bytes[m];
    return j;
}

nlohmann::json stageJson(const StagePlan& s) {
    nlohmann::json per_rank = nlohmann::json::object();
    for (std::size_t c = 0; c < kMemCategoryCount; ++c)
        per_rank[std::string(kMemCategoryNames[c])] = s.per_rank.bytes[c];
    nlohmann::json offloaded = nlohmann::json::object();
    for (std::size_t c = 0; c < kMemCategoryCount; ++c)
        offloaded[std::string(kMemCategoryNames[c])] = s.offloaded.bytes[c];
    nlohmann::json traffic = nlohmann::json::object();
    for (std::size_t c = 0; c < kCollectiveCount; ++c)
        traffic[std::string(kCollectiveNames[c]) + "_traffic_bytes"] = s.traffic.bytes[c];
    const auto link = s.traffic.linkColumns();
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        traffic[std::string(kLinkColumnNames[c])] = link[c];
    return {
        {"stage", s.stage},
        {"per_rank", per_rank},
        {"model_states_bytes", s.model_states_bytes},
        {"activation_bytes", s.activation_bytes},
        {"activation_bytes_by_recompute", byRecompute(s.activation_bytes_by_mode)},
        {"activations_known", s.activations_known},
        {"comm_buffer_bytes", s.comm_buffer_bytes},
        {"workspace_bytes", s.workspace_bytes},
        {"engine_buffers", s.engine_buffers},
        {"total_bytes", s.total_bytes},
        {"comm_elements", s.comm_elements},
        {"comm_bytes", s.comm_bytes},
        {"comm_seconds", s.comm_seconds},
        {"traffic_bytes", s.traffic.total()},
        {"traffic_elements", s.traffic_elements},
        {"traffic", traffic},
        {"fits", s.fits},
        {"margin_bytes", s.margin_bytes},
        {"offloaded", offloaded},
        {"host_bytes", s.host_bytes},
        {"nvme_bytes", s.nvme_bytes},
        {"host_bytes_per_node", s.host_bytes_per_node},
        {"nvme_bytes_per_node", s.nvme_bytes_per_node},
        {"ranks_per_node", s.ranks_per_node},
        {"pcie_bytes", s.pcie_bytes},
        {"pcie_seconds", s.pcie_seconds},
    };
}

// One table row: a label and four right-aligned cells.
void row(std::ostringstream& out, const std::string& label, const std::string (&cells)[4]) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-26s %14s %14s %14s %14s\n", label.c_str(), cells[0].c_str(),
                  cells[1].c_str(), cells[2].c_str(), cells[3].c_str());
    out << buf;
}

template <typename F>
void row(std::ostringstream& out, const std::string& label, const Plan& p, F cell) {
    std::string cells[4];
    for (int s = 0; s < 4; ++s)
        cells[s] = cell(p.stages[s]);
    row(out, label, cells);
}

} // namespace

nlohmann::json toJson(const Plan& p) {
    nlohmann::json stages = nlohmann::json::array();
    for (const StagePlan& s : p.stages)
        stages.push_back(stageJson(s));
    nlohmann::json smallest = nlohmann::json::array();
    for (const auto& n : p.verdict.smallest_world)
        smallest.push_back(optionalInt(n));
    nlohmann::json errata = nlohmann::json::array();
    for (const Erratum& e : p.errata)
        errata.push_back({{"topic", e.topic},
                          {"claimed", e.claimed},
                          {"correct", e.correct},
                          {"claimed_value", e.claimed_value},
                          {"correct_value", e.correct_value},
                          {"unit", e.unit}});
    return {
        {"input", inputJson(p.input)},
        {"psi", p.psi},
        {"psi_padded", p.psi_padded},
        {"stages", stages},
        {"verdict",
         {{"stage", p.verdict.stage},
          {"capacity_bytes", p.verdict.capacity_bytes},
          {"reserve_bytes", p.verdict.reserve_bytes},
          {"usable_bytes", p.verdict.usable_bytes},
          {"fits", p.verdict.fits},
          {"margin_bytes", p.verdict.margin_bytes},
          {"lowest_stage", optionalInt(p.verdict.lowest_stage)},
          {"smallest_world", smallest}}},
        {"errata", errata},
    };
}

std::string formatTable(const Plan& p, ByteUnit unit) {
    const PlanInput& in = p.input;
    auto b = [unit](long long v) { return formatBytes(static_cast<double>(v), unit); };
    std::ostringstream out;
    out << "Per-rank memory, " << renderEnglish(unitLegend(unit)) << "; psi = " << formatPsi(p.psi)
        << ", N = " << in.world << ", " << toString(in.precision)
        << (in.precision == Precision::Bf16Mixed && !in.master_weights ? " (no master)" : "")
        << (in.precision == Precision::Bf16Mixed && in.grad_accum_fp32 ? " with fp32 gradients"
                                                                       : "")
        << ", "
        << (in.convention == Convention::Chapter
                ? "chapter layout for stages 0-1 (stages 2-3, which the chapter does not define, "
                  "as ZeRO shards them)"
                : "ZeRO paper convention")
        << ", activation recompute " << recomputeName(in.recompute) << "\n";
    const std::string head[4] = {"stage 0", "stage 1", "stage 2", "stage 3"};
    row(out, "", head);
    for (std::size_t c = 0; c < kMemCategoryCount; ++c)
        row(out, std::string(kMemCategoryNames[c]), p,
            [&](const StagePlan& s) { return b(s.per_rank.bytes[c]); });
    row(out, "model states", p, [&](const StagePlan& s) { return b(s.model_states_bytes); });
    row(out, "total", p, [&](const StagePlan& s) { return b(s.total_bytes); });
    if (in.offload_optimizer != OffloadDevice::None || in.offload_param != OffloadDevice::None) {
        row(out, "offloaded: host / rank", p, [&](const StagePlan& s) { return b(s.host_bytes); });
        row(out, "offloaded: NVMe / rank", p, [&](const StagePlan& s) { return b(s.nvme_bytes); });
        row(out, "host / node", p, [&](const StagePlan& s) { return b(s.host_bytes_per_node); });
        row(out, "PCIe / rank / step", p,
            [&](const StagePlan& s) { return formatBytes(s.pcie_bytes, unit); });
    }
    row(out, "fits " + in.device.label, p, [&](const StagePlan& s) {
        return (s.fits ? "yes +" : "no -") + b(s.fits ? s.margin_bytes : -s.margin_bytes);
    });
    row(out, "comm elements / step", p,
        [&](const StagePlan& s) { return formatPsi(s.comm_elements); });
    row(out, "comm bytes / step", p,
        [&](const StagePlan& s) { return formatBytes(s.comm_bytes, unit); });
    char bw[64];
    std::snprintf(bw, sizeof bw, "comm time @ %g GB/s", in.bandwidth_gbps);
    row(out, "traffic / rank / step", p,
        [&](const StagePlan& s) { return formatBytes(s.traffic.total(), unit); });
    row(out, "traffic in psi", p, [&](const StagePlan& s) {
        char v[32];
        std::snprintf(v, sizeof v, "%.3f psi", s.traffic_elements / static_cast<double>(p.psi));
        return std::string(v);
    });
    row(out, bw, p, [&](const StagePlan& s) { return formatSeconds(s.comm_seconds); });
    if (!p.stages[0].activations_known)
        out << "(activations unknown: give --micro and a model shape, or --activations-gb)\n";

    const Verdict& v = p.verdict;
    out << "\nVerdict for stage " << v.stage << " on " << in.device.label << ": "
        << b(v.capacity_bytes) << " - " << b(v.reserve_bytes)
        << " reserved (CUDA context, cuBLAS, NCCL, fragmentation) = " << b(v.usable_bytes)
        << " usable; "
        << (v.fits ? "fits with " + b(v.margin_bytes) + " to spare"
                   : "does not fit, short by " + b(-v.margin_bytes))
        << "\n";
    out << "Lowest stage that fits at N = " << in.world << ": "
        << (v.lowest_stage ? std::to_string(*v.lowest_stage) : std::string("none")) << "\n";
    out << "Smallest N that fits:";
    for (int s = 0; s < 4; ++s)
        out << " stage " << s << ": "
            << (v.smallest_world[s] ? std::to_string(*v.smallest_world[s]) : std::string("none"))
            << (s < 3 ? ";" : "\n");

    if (!p.errata.empty()) {
        out << "\nThe chapter's slips at these numbers:\n";
        for (const Erratum& e : p.errata)
            out << "- " << e.topic << ":\n    chapter: " << e.claimed
                << "\n    correct: " << e.correct << "\n";
    }
    return out.str();
}

} // namespace zerolab
