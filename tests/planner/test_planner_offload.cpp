// ZeRO-Offload in the forecast against hand-computed bytes: psi = 8e9, N = 4, bf16 with
// the fp32 master (param 2, grad 2, master 4, m 4, v 4 bytes), stages 1-3, the optimizer
// and the parameters offloaded to cpu and to nvme; what stays on the device, what moves,
// per node, the PCIe traffic, and that device + offloaded is the plan without offload.
#include "runtime/planner/planner.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>

using namespace zerolab;

namespace {

PlanInput input(OffloadDevice optimizer, OffloadDevice param) {
    PlanInput in;
    in.params = 8e9;
    in.world = 4;
    in.precision = Precision::Bf16Mixed;
    in.offload_optimizer = optimizer;
    in.offload_param = param;
    in.ranks_per_node = 2;
    return in;
}

constexpr long long G = 1'000'000'000LL;

} // namespace

TEST(PlannerOffload, OptimizerToCpuMovesMasterAndMomentsAndFromStageTwoTheGradShard) {
    const Plan p = plan(input(OffloadDevice::Cpu, OffloadDevice::None));
    const StagePlan& s1 = p.stages[1];
    // Stage 1: params 2 psi = 16 GB and grads 2 psi = 16 GB stay; master 4 psi / 4 = 8 GB,
    // m and v 8 GB each move.
    EXPECT_EQ(s1.per_rank[MemCategory::Params], 16 * G);
    EXPECT_EQ(s1.per_rank[MemCategory::Grads], 16 * G);
    EXPECT_EQ(s1.per_rank[MemCategory::MasterParams], 0);
    EXPECT_EQ(s1.offloaded[MemCategory::MasterParams], 8 * G);
    EXPECT_EQ(s1.offloaded[MemCategory::OptimM], 8 * G);
    EXPECT_EQ(s1.offloaded[MemCategory::OptimV], 8 * G);
    EXPECT_EQ(s1.host_bytes, 24 * G);
    EXPECT_EQ(s1.nvme_bytes, 0);
    EXPECT_EQ(s1.host_bytes_per_node, 48 * G);
    // PCIe: the grad shard down (2e9 x 2 bytes) and the updated param shard up (2e9 x 2).
    EXPECT_DOUBLE_EQ(s1.pcie_bytes, 8e9);
    // Stage 2: the grad shard (2 psi / 4 = 4 GB) moves too.
    const StagePlan& s2 = p.stages[2];
    EXPECT_EQ(s2.per_rank[MemCategory::Grads], 0);
    EXPECT_EQ(s2.offloaded[MemCategory::Grads], 4 * G);
    EXPECT_EQ(s2.host_bytes, 28 * G);
    EXPECT_EQ(s2.per_rank[MemCategory::Params], 16 * G);
    // Stage 3: params 2 psi / 4 = 4 GB stay on the device (no offload_param).
    const StagePlan& s3 = p.stages[3];
    EXPECT_EQ(s3.per_rank[MemCategory::Params], 4 * G);
    EXPECT_EQ(s3.host_bytes, 28 * G);
    // Stage 0 offloads nothing.
    EXPECT_EQ(p.stages[0].offloaded.total(), 0);
    EXPECT_EQ(p.stages[0].host_bytes, 0);
}

TEST(PlannerOffload, NvmeTakesTheOptimizerStateButTheGradShardStaysInHostMemory) {
    const Plan p = plan(input(OffloadDevice::Nvme, OffloadDevice::None));
    EXPECT_EQ(p.stages[1].nvme_bytes, 24 * G);
    EXPECT_EQ(p.stages[1].host_bytes, 0);
    EXPECT_EQ(p.stages[2].nvme_bytes, 24 * G);
    EXPECT_EQ(p.stages[2].host_bytes, 4 * G);
    EXPECT_EQ(p.stages[3].nvme_bytes, 24 * G);
    EXPECT_EQ(p.stages[3].nvme_bytes_per_node, 48 * G);
}

TEST(PlannerOffload, ParamOffloadAtStageThreeOnly) {
    for (OffloadDevice d : {OffloadDevice::Cpu, OffloadDevice::Nvme}) {
        const Plan p = plan(input(d, d));
        const StagePlan& s3 = p.stages[3];
        EXPECT_EQ(s3.per_rank[MemCategory::Params], 0);
        EXPECT_EQ(s3.offloaded[MemCategory::Params], 4 * G);
        // master + m + v + params on the offload device; the grad shard in host memory.
        const long long on_device_kind = 8 * G * 3 + 4 * G;
        EXPECT_EQ(d == OffloadDevice::Cpu ? s3.host_bytes : s3.nvme_bytes,
                  d == OffloadDevice::Cpu ? on_device_kind + 4 * G : on_device_kind);
        // Device: comm buffers only among the ledger's categories of a bare psi.
        EXPECT_EQ(s3.total_bytes, s3.per_rank[MemCategory::CommBuffers]);
        // PCIe: grads down (2e9 x 2 bytes), params up for forward and backward (2 x 2e9 x 2).
        EXPECT_DOUBLE_EQ(s3.pcie_bytes, 12e9);
        // Below stage 3 the parameters stay.
        EXPECT_EQ(p.stages[2].offloaded[MemCategory::Params], 0);
    }
}

TEST(PlannerOffload, DevicePlusOffloadedIsThePlanWithoutOffload) {
    const Plan off = plan(input(OffloadDevice::Cpu, OffloadDevice::Cpu));
    const Plan none = plan(input(OffloadDevice::None, OffloadDevice::None));
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(off.stages[s].ledger().bytes, none.stages[s].per_rank.bytes) << "stage " << s;
        EXPECT_EQ(off.stages[s].total_bytes + off.stages[s].offloaded.total(),
                  none.stages[s].total_bytes);
        EXPECT_EQ(off.stages[s].model_states_bytes, none.stages[s].model_states_bytes);
    }
    EXPECT_EQ(none.stages[3].host_bytes, 0);
    EXPECT_DOUBLE_EQ(none.stages[3].pcie_bytes, 0);
}

TEST(PlannerOffload, ExplainGivesTheMovesAndDeepSpeedsEstimator) {
    const std::string text = explain(input(OffloadDevice::Cpu, OffloadDevice::None), 2);
    EXPECT_NE(text.find("ZeRO-Offload (forecast"), std::string::npos) << text;
    EXPECT_NE(text.find("master_params: 8.00 GB moves to host memory (offload_optimizer)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("per node (2 ranks): host memory 56.00 GB"), std::string::npos) << text;
    // estimate_zero2_model_states_mem_needs: GPU 2 psi = 16 GB, CPU psi x max(16, 16) x 1.5.
    EXPECT_NE(
        text.find("GPU 2 psi = 16.00 GB, CPU psi x max(4 x 4, 16) x 1.5 = 192.00 GB per node"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("They differ"), std::string::npos);
    const std::string none = explain(input(OffloadDevice::None, OffloadDevice::None), 2);
    EXPECT_EQ(none.find("Offload"), std::string::npos) << none;
}

TEST(PlannerOffload, ConfigKeysReachThePrediction) {
    nlohmann::json doc = {{"train_batch_size", 8},
                          {"train_micro_batch_size_per_gpu", 4},
                          {"zero_optimization",
                           {{"stage", 3},
                            {"offload_optimizer", {{"device", "cpu"}, {"pin_memory", true}}},
                            {"offload_param", {{"device", "nvme"}, {"nvme_path", "/local"}}}}},
                          {"model", {{"preset", "nano"}}}};
    const ConfigResult r = parseConfig(doc, 2, "t.json");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->zero.offload.optimizer, OffloadDevice::Cpu);
    EXPECT_EQ(r.config->zero.offload.param, OffloadDevice::Nvme);
    const StagePlan sp = predictRun(*r.config);
    EXPECT_EQ(sp.per_rank[MemCategory::Params], 0);
    EXPECT_GT(sp.nvme_bytes, 0);
    EXPECT_GT(sp.host_bytes, 0);
    // The config round-trips with its offload.
    const ConfigResult again = parseConfig(toJson(*r.config), 2, "t.json");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again.config, *r.config);
}

TEST(PlannerOffload, ZeroOffloadsThirteenBillionOnOne32GbGpuFromTheCommandLine) {
    // ZeRO-Offload's headline: 13B parameters trained on one 32 GB V100. Stage 2 at N = 1
    // with the optimizer on the host keeps only the 2-byte parameters (26 GB) and a 1 GB
    // reduce bucket on the device; without offload it needs 209 GB.
    const auto r = test::runTool("zerolab-plan", "--params 13e9 --world 1 --stage 2 "
                                                 "--offload-optimizer cpu --capacity-gb 32 "
                                                 "--reserve-gb 1 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["stages"][2]["total_bytes"], 27'000'000'000LL);
    EXPECT_EQ(j["stages"][2]["host_bytes"], 182'000'000'000LL); // 4 + 4 + 4 + 2 bytes x 13e9
    EXPECT_DOUBLE_EQ(j["stages"][2]["pcie_bytes"].get<double>(), 52e9);
    EXPECT_TRUE(j["verdict"]["fits"].get<bool>());
    EXPECT_EQ(j["input"]["offload_optimizer"], "cpu");
    EXPECT_EQ(j["stages"][0]["total_bytes"], 209'000'000'000LL);

    // The same on the V100 32 GB preset (docs/planner.md): it fits what the card leaves.
    const auto v100 = test::runTool("zerolab-plan", "--params 13e9 --world 1 --stage 2 "
                                                    "--offload-optimizer cpu --device v100-32 "
                                                    "--json");
    ASSERT_EQ(v100.exit_code, 0) << v100.err;
    const auto jv = nlohmann::json::parse(v100.out);
    EXPECT_EQ(jv["input"]["device"]["capacity_bytes"], 32480LL * 1024 * 1024);
    EXPECT_EQ(jv["input"]["device"]["label"], "V100 32 GB");
    EXPECT_TRUE(jv["verdict"]["fits"].get<bool>());

    const auto bad = test::runTool("zerolab-plan", "--params 1e9 --offload-param disk");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--offload-param: expected none, cpu or nvme, got 'disk'"),
              std::string::npos)
        << bad.err;
}
