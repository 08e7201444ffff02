// Compute slowed while a collective is in flight (step_time.h, StepCosts::model_beside_comm;
// gpu_physics.h, besideCollective; MachineProfile::compute_beside_comm): the overlapped part
// of a piece runs slower by the factor, the rest at its rate alone; a step whose collectives
// all run after compute is unchanged, a ZeRO-3 step whose gathers hide behind compute gets
// longer. Hand-computed on made-up costs (exact, to rounding), then on the GPU presets.
#include "runtime/model/param_layout.h"
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/gpu_physics.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/step_time.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace zerolab {
namespace {

constexpr double kMs = 1e-3;
constexpr double kEps = 1e-12;

double coll(double bytes) {
    return 1 * kMs + bytes * 1e-9;
}

TrainConfig nano(int stage, int world, bool overlap) {
    TrainConfig c;
    c.model.preset = "nano";
    c.model.shape = *findModelPreset("nano");
    c.model.seq_len = 64;
    c.batch.world = world;
    c.batch.micro_batch = 1;
    c.batch.grad_accum = 1;
    c.batch.train_batch_size = world;
    c.zero.stage = stage;
    c.zero.overlap_comm = overlap;
    return c;
}

// As test_step_time.cpp's: blocks 1 ms forward, 2 ms backward, AdamW 3 ms, a collective
// 1 ms + 1 ns a byte; with `slow`, every piece and kernel `slow` times longer beside a
// collective in flight.
StepCosts costs(double slow = 1) {
    StepCosts s;
    auto at = [&s](ModelCompute c) -> double& { return s.model[static_cast<std::size_t>(c)]; };
    at(ModelCompute::EncoderForward) = 0.5 * kMs;
    at(ModelCompute::BlockForward) = 1 * kMs;
    at(ModelCompute::HeadForward) = 1 * kMs;
    at(ModelCompute::HeadBackward) = 2 * kMs;
    at(ModelCompute::BlockBackward) = 2 * kMs;
    at(ModelCompute::EncoderBackward) = 0.5 * kMs;
    s.engine_op = [](OpKind k, double) { return k == OpKind::Adamw ? 3 * kMs : 0.0; };
    s.collective = [](Collective, double bytes) { return coll(bytes); };
    if (slow != 1) {
        for (std::size_t i = 0; i < s.model.size(); ++i)
            s.model_beside_comm[i] = slow * s.model[i];
        s.engine_op_beside_comm = [slow, e = s.engine_op](OpKind k, double n) {
            return slow * e(k, n);
        };
    }
    return s;
}

constexpr double kForward = 3.5 * kMs, kAdam = 3 * kMs;

std::int64_t padded(const TrainConfig& c, int u) {
    return makeParamLayout(c.model.shape, c.batch.world)
        .units[static_cast<std::size_t>(u)]
        .padded_elems;
}

// Stage 0 with overlap and buckets {2, 3}, {1}, {0} (StepTime.StageZeroOverlapRunsBuckets-
// BesideBackward), compute at half its rate beside a collective: block 1's backward runs
// beside bucket {2, 3} for that bucket's time, doing half of it in work, then alone; the
// encoder's backward runs wholly beside bucket {1}, twice its time.
TEST(StepTimeBeside, OnlyTheOverlappedPartOfAPieceRunsSlowerByTheFactor) {
    TrainConfig c = nano(0, 2, true);
    c.zero.reduce_bucket_size = padded(c, 2);
    const StepTimeForecast f = simulateStep(c, costs(2));
    const double b23 = static_cast<double>(padded(c, 2) + padded(c, 3)) * 4;
    const double b1 = static_cast<double>(padded(c, 1)) * 4,
                 b0 = static_cast<double>(padded(c, 0)) * 4;
    const double t2 = kForward + 4 * kMs; // head and block 2 backward: nothing in flight
    const double e23 = t2 + coll(b23);
    ASSERT_LT(coll(b23), 2 * 2 * kMs); // the bucket ends within block 1's slowed backward
    const double t1 = e23 + (2 * kMs - coll(b23) / 2); // the rest of block 1 alone
    ASSERT_GT(coll(b1), 2 * 0.5 * kMs);                // the encoder's wholly beside {1}
    const double t0 = t1 + 2 * 0.5 * kMs;
    const double e1 = t1 + coll(b1);
    const double e0 = std::max(t0, e1) + coll(b0);
    ASSERT_EQ(f.collectives.size(), 3u);
    EXPECT_NEAR(f.collectives[0].end_s, e23, kEps);
    EXPECT_NEAR(f.collectives[1].issue_s, t1, kEps);
    EXPECT_NEAR(f.collectives[2].issue_s, t0, kEps);
    EXPECT_NEAR(f.step_s, e0 + kAdam, kEps);
    // The pieces' own times are their times alone; the slowdown is counted apart.
    EXPECT_NEAR(f.backward_s, 6.5 * kMs, kEps);
    EXPECT_NEAR(f.compute_beside_comm_s, coll(b23) / 2 + 0.5 * kMs, kEps);
    EXPECT_NEAR(f.compute_s, kForward + 6.5 * kMs + kAdam + f.compute_beside_comm_s, kEps);
    // The spans before the first collective are as without the slowdown.
    const StepTimeForecast alone = simulateStep(c, costs());
    EXPECT_NEAR(alone.collectives[0].issue_s, f.collectives[0].issue_s, kEps);
    EXPECT_GT(f.step_s, alone.step_s);
    EXPECT_EQ(alone.compute_beside_comm_s, 0);
}

// Every collective after backward (stage 0 without overlap, stage 3 with one slot and no
// prefetch): no compute overlaps one, and the step is the step without the slowdown.
TEST(StepTimeBeside, ComputeNotOverlappedIsUnchanged) {
    for (const TrainConfig& c : {nano(0, 2, false), nano(1, 2, false), nano(3, 2, false)}) {
        const StepTimeForecast slow = simulateStep(c, costs(3));
        const StepTimeForecast alone = simulateStep(c, costs());
        EXPECT_NEAR(slow.step_s, alone.step_s, kEps) << "stage " << c.zero.stage;
        EXPECT_NEAR(slow.compute_beside_comm_s, 0, kEps) << "stage " << c.zero.stage;
    }
}

TEST(StepTimeBeside, TheGpuBesideACollectiveHasNcclsSmsAndHbmTaken) {
    const MachineProfile p = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const MachineProfile q = besideCollective(p, 8, 1);
    ASSERT_TRUE(q.gpu);
    EXPECT_EQ(q.gpu->sms, 132 - kNcclChannels);
    EXPECT_NEAR(q.gpu->peak_flops, p.gpu->peak_flops * 108 / 132, 1e-3 * p.gpu->peak_flops);
    const auto fa = static_cast<std::size_t>(OpKind::FlashAttentionForward);
    EXPECT_NEAR(q.rates[fa], p.rates[fa] * 108 / 132, 1e-9 * p.rates[fa]);
    // NCCL's ring on NVLink 4 at 80% of 450 GB/s, read and written: 2 x 360 x 7/8 / (7/8)
    // GB/s off the 3.35 TB/s x the memory fraction an elementwise kernel reaches.
    const double reached = p.gpu->memory_bytes_per_s * p.gpu->memory_fraction;
    const auto gelu = static_cast<std::size_t>(OpKind::GeluForward);
    EXPECT_NEAR(q.rates[gelu] / p.rates[gelu], (reached - 2 * 360e9) / reached, 0.01);
    // A GEMM whose 132 tiles fill the SMs in one wave needs two on the 108 left (the
    // forum's trace: nearly twice as long): its split-K is chosen for the whole GPU.
    // 12 x 11 tiles of 256 x 128 over K 16384: compute-bound (141.7 GFLOP, 155 MB).
    const double one_wave = gemmSeconds(*p.gpu, 12 * 256, 11 * 128, 16384);
    EXPECT_GT(gemmSeconds(*q.gpu, 12 * 256, 11 * 128, 16384), 1.9 * one_wave);
    EXPECT_EQ(q.gpu->held_sms, kNcclChannels);
    // A large GEMM, many waves: about the SMs' share.
    const double big = gemmSeconds(*p.gpu, 16384, 8192, 8192);
    EXPECT_NEAR(gemmSeconds(*q.gpu, 16384, 8192, 8192) / big, 132.0 / 108, 0.05);
    // One rank, or no GPU model: nothing taken.
    EXPECT_EQ(besideCollective(p, 1, 1).gpu->sms, 132);
    MachineProfile cpu = p;
    cpu.gpu.reset();
    EXPECT_EQ(besideCollective(cpu, 8, 1).rates, cpu.rates);
}

TrainConfig gpt2(int stage, bool overlap, int micro, int accumulation) {
    TrainConfig c;
    c.model.shape = ModelShape{48, 25, 1600, 1024, 50257, 50304};
    c.model.seq_len = 1024;
    c.precision = Precision::Bf16Mixed;
    c.batch.world = 8;
    c.batch.micro_batch = micro;
    c.batch.grad_accum = accumulation;
    c.batch.train_batch_size = 8 * micro * accumulation;
    c.zero.stage = stage;
    c.zero.overlap_comm = overlap;
    return c;
}

// The step without the slowdown: the same costs less model_beside_comm.
StepTimeForecast withoutSlowdown(const TrainConfig& c, const MachineProfile& p) {
    StepCosts k = stepCosts(c, p, {});
    k.model_beside_comm = {};
    k.engine_op_beside_comm = nullptr;
    return simulateStep(c, k);
}

// llm.c's ZeRO-1 on 8 H100 (the gradients reduced after the last micro-step's backward, the
// parameters gathered after the optimizer): hardly any compute beside a collective.
TEST(StepTimeBeside, AZeroOneStepWithItsCommAtTheEndChangesLittle) {
    const TrainConfig c = gpt2(1, false, 16, 8);
    const MachineProfile p = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const StepTimeForecast f = predictStepTime(c, p);
    const StepTimeForecast alone = withoutSlowdown(c, p);
    EXPECT_GE(f.step_s, alone.step_s - kEps);
    EXPECT_LT(f.step_s, 1.01 * alone.step_s);
    EXPECT_TRUE(std::any_of(f.assumptions.begin(), f.assumptions.end(), [](const auto& a) {
        return a.find("compute slowed while a collective is in flight") != std::string::npos &&
               a.find("24 of the 132 SMs") != std::string::npos;
    }));
}

// FSDP-like ZeRO-3 on 8 H100: a block's gather hides behind the block before it, so the
// compute under every gather and reduce-scatter runs on the SMs NCCL leaves: the step gets
// longer, by about the compute the collectives overlap times the slowdown.
TEST(StepTimeBeside, AZeroThreeStepWithCommHiddenBehindComputeGetsLonger) {
    const TrainConfig c = gpt2(3, true, 8, 1);
    const MachineProfile p = presetProfile("h100-80", "", "", Precision::Bf16Mixed);
    const StepTimeForecast f = predictStepTime(c, p);
    const StepTimeForecast alone = withoutSlowdown(c, p);
    EXPECT_GT(f.compute_beside_comm_s, 0);
    EXPECT_GT(f.step_s, alone.step_s + 0.5 * f.compute_beside_comm_s);
    // At most the overlapped time's share of SMs and HBM: under in-flight x (1/(1 - 48%) - 1).
    EXPECT_LT(f.compute_beside_comm_s, f.comm_in_flight_s);
    EXPECT_GT(f.step_s, 1.01 * alone.step_s);
    // Accumulation repeats the steady micro-step: the slowdown counted in every one.
    const TrainConfig c4 = gpt2(3, true, 8, 4);
    const StepTimeForecast f4 = predictStepTime(c4, p);
    StepCosts k = stepCosts(c4, p, {});
    const StepTimeForecast each = simulateStep(c4, k, true);
    EXPECT_NEAR(f4.step_s, each.step_s, 1e-9 * each.step_s);
    EXPECT_NEAR(f4.compute_beside_comm_s, each.compute_beside_comm_s, 1e-9 * each.step_s);
}

MachineProfile calibratedLike() {
    MachineProfile p;
    p.source = "calibrated";
    p.name = "made-up";
    p.cores = 8;
    p.rates.fill(1e12);
    p.rates[static_cast<std::size_t>(OpKind::MatmulForward)] = 1e9;
    p.rates[static_cast<std::size_t>(OpKind::MatmulBackward)] = 1e9;
    p.intra_link = LinkSpec{"x", "x", 1e8, 1e-6};
    return p;
}

// A calibrated profile: the measured compute_beside_comm at the config's link and ranks;
// without it (an older profile) compute is not slowed, and the assumptions say so.
TEST(StepTimeBeside, ACalibratedProfilesMeasuredShareSlowsComputeBesideAColllective) {
    const TrainConfig c = nano(3, 2, true);
    MachineProfile p = calibratedLike();
    const StepCosts none = stepCosts(c, p, {});
    EXPECT_EQ(none.model_beside_comm, (std::array<double, 10>{}));
    const StepTimeForecast old = predictStepTime(c, p);
    EXPECT_EQ(old.compute_beside_comm_s, 0);
    EXPECT_TRUE(std::any_of(old.assumptions.begin(), old.assumptions.end(), [](const auto& a) {
        return a.find("compute not slowed while a collective is in flight") != std::string::npos;
    }));
    p.compute_beside_comm = {{LinkClass::IntraHost, 4, 0.25}, {LinkClass::IntraHost, 2, 0.5}};
    const StepCosts k = stepCosts(c, p, {});
    for (std::size_t i = 0; i < k.model.size(); ++i)
        EXPECT_NEAR(k.model_beside_comm[i], 2 * k.model[i], 1e-18) << i;
    EXPECT_NEAR(k.engine_op_beside_comm(OpKind::Adamw, 1e6), 2 * k.engine_op(OpKind::Adamw, 1e6),
                1e-18);
    const StepTimeForecast f = predictStepTime(c, p);
    EXPECT_GT(f.compute_beside_comm_s, 0);
    EXPECT_GT(f.step_s, old.step_s);
    EXPECT_TRUE(std::any_of(f.assumptions.begin(), f.assumptions.end(), [](const auto& a) {
        return a.find("measured compute_beside_comm") != std::string::npos;
    }));
    // Kept through the profile's JSON; a share above 1 is refused.
    const MachineProfile back = machineProfileFromJson(toJson(p), "p.json");
    EXPECT_EQ(back.compute_beside_comm, p.compute_beside_comm);
    nlohmann::json j = toJson(p);
    j["compute_beside_comm"][0]["rate"] = 1.5;
    try {
        machineProfileFromJson(j, "p.json");
        ADD_FAILURE() << "a share above 1 was read";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("$.compute_beside_comm[0].rate"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace zerolab
