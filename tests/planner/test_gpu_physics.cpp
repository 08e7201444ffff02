// The GPU presets' physics (gpu_physics.h, issue 37 item 3): matmul efficiency by shape
// (rising with size, wave quantization, the roofline), flash attention's FLOPs and either
// attention kind priced as flash, bf16 elementwise bytes, NCCL's collectives (latency for
// small messages, tree across hosts, the node's NICs between hosts), ZeRO-3's all-gathers
// hidden behind compute that outlasts them, recompute's extra forward, and the profile's
// JSON keeping its GPU model. No timing: every expectation is arithmetic.
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/gpu_physics.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/step_time.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace zerolab {
namespace {

GpuModel a100() {
    return *presetProfile("a100-80", "", "", Precision::Bf16Mixed).gpu;
}

TEST(GpuPhysics, GemmEfficiencyRisesWithSizeTowardTheCeiling) {
    for (const char* key : {"a100-80", "h100-80"}) {
        const GpuModel g = *presetProfile(key, "", "", Precision::Bf16Mixed).gpu;
        double before = 0;
        for (double d = 256; d <= 16384; d *= 2) {
            const double e = gemmEfficiency(g, d, d, d);
            EXPECT_GT(e, before) << key << " at " << d;
            EXPECT_LE(e, g.matmul_ceiling * 1.03) << key << " at " << d;
            before = e;
        }
        // Large square GEMMs come within a few per cent of the measured ceiling.
        EXPECT_GT(gemmEfficiency(g, 8192, 8192, 8192), 0.95 * g.matmul_ceiling) << key;
        // A short K loop pays its fill: K = 64 runs well below K = 4096 at the same output.
        EXPECT_LT(gemmEfficiency(g, 8192, 8192, 64), 0.7 * gemmEfficiency(g, 8192, 8192, 4096));
    }
}

TEST(GpuPhysics, OneTileMoreThanTheSmsTakesASecondWave) {
    const GpuModel g = a100();
    // 108 tiles of 256 x 128 fill the A100's 108 SMs once; 109 need two waves. K = 1000 is
    // too short to split (512 a split at least), so nothing refills the second wave.
    const double full = gemmEfficiency(g, 256 * 108, 128, 1000);
    const double one_more = gemmEfficiency(g, 256 * 109, 128, 1000);
    EXPECT_NEAR(one_more / full, 109.0 / 216, 1e-9);
    // With a long K, split-K refills the SMs.
    EXPECT_GT(gemmEfficiency(g, 256 * 109, 128, 65536),
              0.9 * gemmEfficiency(g, 256 * 108, 128, 65536));
}

TEST(GpuPhysics, ASkinnyGemmIsBoundByItsBytes) {
    const GpuModel g = a100();
    // M = N = 8192, K = 8: 2 bytes of each operand and output per element read or written
    // once, at the memory fraction; the tensor cores would take a fraction of that.
    const double bytes = 2.0 * (8192.0 * 8 + 8 * 8192.0 + 8192.0 * 8192);
    EXPECT_DOUBLE_EQ(gemmSeconds(g, 8192, 8192, 8),
                     bytes / (g.memory_bytes_per_s * g.memory_fraction));
    EXPECT_THROW(gemmSeconds(g, 0, 8, 8), PlanError);
}

TEST(GpuPhysics, MatmulBackwardIsTheInputsAndTheWeightsGradientGemms) {
    const GpuModel g = a100();
    const KernelOp bwd = matmulOp(false, 65536, 768, 3072);
    EXPECT_DOUBLE_EQ(matmulOpSeconds(g, bwd),
                     gemmSeconds(g, 65536, 768, 3072) + gemmSeconds(g, 3072, 768, 65536));
    const MachineProfile p = presetProfile("a100-80", "", "", Precision::Bf16Mixed);
    EXPECT_DOUBLE_EQ(opRate(p, OpKind::MatmulBackward, 65536, 768, 3072),
                     bwd.work / matmulOpSeconds(g, bwd));
    // Without a shape, the ceiling.
    EXPECT_DOUBLE_EQ(opRate(p, OpKind::MatmulForward), 312e12 * 0.869);
}

TEST(GpuPhysics, FlashFlopsAreTheCausalTiles) {
    // T = 2048 in tiles of 128: 16 (16 + 1) / 2 tiles of 128 x 128 scores, T (T + 128) / 2,
    // two matmuls of head_dim, 2 FLOPs a multiply-add: 2 d T (T + 128) a head.
    EXPECT_DOUBLE_EQ(flashAttentionFlops(1, 2048, 1, 128, true), 2.0 * 128 * 2048 * 2176);
    EXPECT_DOUBLE_EQ(flashAttentionFlops(3, 2048, 5, 128, true),
                     15 * flashAttentionFlops(1, 2048, 1, 128, true));
    EXPECT_DOUBLE_EQ(flashAttentionFlops(2, 1024, 12, 64, false),
                     2.5 * flashAttentionFlops(2, 1024, 12, 64, true));
    // Shorter than a tile: one tile of T x T.
    EXPECT_DOUBLE_EQ(flashAttentionFlops(1, 100, 1, 64, true), 4.0 * 64 * 100 * 100);
    // Half the full T x T, plus the diagonal's tiles: never below half.
    EXPECT_GT(flashAttentionFlops(1, 4096, 1, 64, true), 0.5 * 4.0 * 64 * 4096.0 * 4096);
    EXPECT_THROW(flashAttentionFlops(0, 1024, 12, 64, true), PlanError);
}

TEST(GpuPhysics, EitherAttentionKindIsPricedAsFlash) {
    ModelShape s = *findModelPreset("gpt2-124m");
    const std::vector<KernelOp> standard = {
        {OpKind::AttentionForward, 1}, {OpKind::AttentionBackward, 2}, {OpKind::GeluForward, 7}};
    const std::vector<KernelOp> flash = {{OpKind::FlashAttentionForward, 3},
                                         {OpKind::FlashAttentionBackward, 4},
                                         {OpKind::GeluForward, 7}};
    const std::vector<KernelOp> a = gpuEngineOps(standard, s, 4, 1024);
    EXPECT_EQ(a, gpuEngineOps(flash, s, 4, 1024));
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].kind, OpKind::FlashAttentionForward);
    EXPECT_DOUBLE_EQ(a[0].work, flashAttentionFlops(4, 1024, 12, 64, true));
    EXPECT_DOUBLE_EQ(a[1].work, flashAttentionFlops(4, 1024, 12, 64, false));
    EXPECT_EQ(a[2], standard[2]);
}

TEST(GpuPhysics, Bf16ActivationsMoveHalfTheBytesOfFp32) {
    const MachineProfile bf16 = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const MachineProfile fp32 = presetProfile("h100-80", "", "", Precision::Fp32);
    for (OpKind k : {OpKind::GeluForward, OpKind::LayernormBackward, OpKind::Residual})
        EXPECT_DOUBLE_EQ(bf16.rates[static_cast<std::size_t>(k)],
                         2 * fp32.rates[static_cast<std::size_t>(k)]);
    // GELU reads and writes an element once: 4 bytes at bf16, at 70% of 3.35 TB/s.
    EXPECT_DOUBLE_EQ(bf16.rates[static_cast<std::size_t>(OpKind::GeluForward)], 3350e9 * 0.7 / 4);
    // The optimizer works on fp32 states whatever the activations.
    EXPECT_DOUBLE_EQ(bf16.rates[static_cast<std::size_t>(OpKind::AdamwMixed)],
                     fp32.rates[static_cast<std::size_t>(OpKind::Adamw)]);
    EXPECT_THROW(elementwiseBytes(OpKind::MatmulForward, 2), PlanError);
}

MachineProfile cluster(const char* gpu, double per_gpu_inter) {
    MachineProfile p = presetProfile(gpu, "", "", Precision::Bf16Mixed);
    p.inter_link = LinkSpec{"custom", "", per_gpu_inter, kCustomLinkLatencyS};
    return p;
}

TEST(GpuPhysics, LatencyDominatesSmallMessagesAndBandwidthLargeOnes) {
    const MachineProfile p = cluster("h100-80", 50e9);
    // 8 bytes over 8 GPUs of a host: NCCL's base latency and 7 NVLink steps, no more.
    const double small = ncclSeconds(p, Collective::AllGather, 8, 1, 8);
    const double latency = (kNcclBaseLatencyUs + 7 * kNcclRingNvlinkStepUs) * 1e-6;
    EXPECT_NEAR(small, latency, 1e-3 * latency);
    // 10 GB: the ring's bytes at the NVLink's bus bandwidth, the latency a rounding error.
    const double big = ncclSeconds(p, Collective::AllGather, 8, 1, 1e10);
    const double bandwidth = 1e10 * 7 / 8 / (450e9 * 0.80);
    EXPECT_NEAR(big, bandwidth + latency, 1e-12);
    EXPECT_LT(latency, 0.01 * big);
    // Across 64 hosts a small all-reduce takes NCCL's tree: log2 of the hosts' network
    // steps, not the ring's 2 (512 - 1).
    const double tree = ncclSeconds(p, Collective::AllReduce, 512, 64, 8);
    const double tree_us =
        kNcclBaseLatencyUs + 2 * (7 * kNcclTreeNvlinkStepUs + 6 * kNcclTreeNetStepUs);
    EXPECT_NEAR(tree, tree_us * 1e-6, 1e-3 * tree);
    // The ring's latency: 2 (512 - 1) steps, 2 (64 - 1) of them between hosts.
    const double ring_us = kNcclBaseLatencyUs + (2 * 511 - 2 * 63) * kNcclRingNvlinkStepUs +
                           2 * 63 * kNcclRingNetStepUs;
    EXPECT_LT(tree, 0.1 * ring_us * 1e-6);
}

TEST(GpuPhysics, BetweenHostsTheNodesNicsCarryTheTrafficNotOneGpusLink) {
    // One 400 Gb/s NIC per GPU: the node has 3.2 Tb/s. A 13 GB all-gather over 16 hosts
    // of 8 costs about what it costs inside one host, not 8 times more.
    const MachineProfile p = cluster("h100-80", 50e9);
    const double bytes = 13.3e9;
    const double one_host = ncclSeconds(p, Collective::AllGather, 8, 1, bytes);
    const double sixteen = ncclSeconds(p, Collective::AllGather, 128, 16, bytes);
    EXPECT_LT(sixteen, 1.25 * one_host);
    // Each node's NICs receive the 15 other hosts' shares at 90% of 400 GB/s.
    const double nics = bytes * 15 / 16 / (8 * 50e9 * kNicBusEfficiency);
    EXPECT_GE(sixteen, nics);
    // 1.6 Tb/s a node (200 Gb/s a GPU): the NICs are the bottleneck.
    const MachineProfile q = cluster("a100-40", 25e9);
    const double slow = ncclSeconds(q, Collective::AllGather, 128, 16, bytes);
    EXPECT_NEAR(slow, bytes * 15 / 16 / (8 * 25e9 * kNicBusEfficiency), 0.02 * slow);
    EXPECT_THROW(ncclSeconds(presetProfile("h100-80", "", "", Precision::Bf16Mixed),
                             Collective::AllGather, 16, 2, 1),
                 PlanError);
}

TrainConfig gpt2Xl(int stage, int world) {
    TrainConfig c;
    c.model.shape = ModelShape{48, 25, 1600, 1024, 50257, 50304};
    c.model.seq_len = 1024;
    c.precision = Precision::Bf16Mixed;
    c.batch.world = world;
    c.batch.micro_batch = 8;
    c.batch.grad_accum = 1;
    c.batch.train_batch_size = world * 8;
    c.zero.stage = stage;
    c.zero.overlap_comm = true;
    return c;
}

TEST(GpuPhysics, StageThreeGathersHideBehindComputeThatOutlastsThem) {
    const TrainConfig c = gpt2Xl(3, 8);
    // NVLink 4: a block's gather (61 MB) takes a fraction of its forward: the prefetch hides
    // it; what waits is the first gather of each pass and the last reduce-scatter.
    MachineProfile p = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const StepTimeForecast fast = predictStepTime(c, p);
    const auto ag = static_cast<std::size_t>(Collective::AllGather);
    EXPECT_GT(fast.in_flight_s[ag], 0);
    EXPECT_LT(fast.exposed_s[ag], 0.1 * fast.in_flight_s[ag]);
    // A link 1000 times slower: the gathers outlast the compute and the step waits on them.
    p.intra_link->bytes_per_s /= 1000;
    const StepTimeForecast slow = predictStepTime(c, p);
    EXPECT_GT(slow.exposed_s[ag], 0.5 * slow.in_flight_s[ag]);
    EXPECT_GT(slow.step_s, slow.compute_s + 0.5 * slow.in_flight_s[ag]);
}

TEST(GpuPhysics, FullRecomputeAddsAFlashForwardPerBlock) {
    TrainConfig c = gpt2Xl(1, 8);
    const MachineProfile p = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const StepCosts none = stepCosts(c, p, {});
    c.model.recompute = Recompute::Full;
    const StepCosts full = stepCosts(c, p, {});
    const auto fwd = static_cast<std::size_t>(ModelCompute::BlockForward);
    const auto rc = static_cast<std::size_t>(ModelCompute::BlockRecompute);
    EXPECT_EQ(none.model[rc], 0);
    // The block's forward less what backward does not need (the MLP's projection and the
    // last residual add: gpt2_family.cpp), its flash attention forward included.
    const double flash = flashAttentionFlops(8, 1024, 25, 64, true) /
                         p.rates[static_cast<std::size_t>(OpKind::FlashAttentionForward)];
    EXPECT_GT(full.model[rc], 0.6 * full.model[fwd]);
    EXPECT_LT(full.model[rc], full.model[fwd]);
    EXPECT_GT(full.model[rc], flash);
    const StepTimeForecast f = predictStepTime(c, p);
    EXPECT_NEAR(f.recompute_s, 48 * full.model[rc], 1e-12);
    // The forecast says what engine it describes.
    EXPECT_TRUE(std::any_of(f.assumptions.begin(), f.assumptions.end(), [](const auto& a) {
        return a.find("engine of today's class") != std::string::npos &&
               a.find("zerolab's own GPU engine is not there yet") != std::string::npos;
    }));
}

TEST(GpuPhysics, AProfilesJsonKeepsItsGpuModel) {
    const MachineProfile p = presetProfile("h200-141", "", "ib-ndr", Precision::Bf16Mixed);
    const MachineProfile back = machineProfileFromJson(toJson(p), "p.json");
    ASSERT_TRUE(back.gpu);
    EXPECT_EQ(*back.gpu, *p.gpu);
    nlohmann::json j = toJson(p);
    j["gpu"]["matmul_ceiling"] = 1.5;
    try {
        machineProfileFromJson(j, "p.json");
        ADD_FAILURE() << "a ceiling above 1 was read";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("p.json: $.gpu.matmul_ceiling"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace zerolab
