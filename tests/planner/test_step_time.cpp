// The step-time model on hand-computed schedules (step_time.h): made-up costs (every block
// 1 ms forward, 2 ms backward; a collective 1 ms + 1 ns a byte), the nano model (units 0-3),
// and the step worked out by hand from the engine's schedule: stage 0 without and with
// overlap_comm and small buckets, stage 3 with one gather slot (units kept at the turn)
// and with two (prefetch), accumulation at stages 1 and 2, recompute's extra forward,
// ranks sharing cores. Exact (to rounding).
#include "runtime/model/param_layout.h"
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

TrainConfig nano(int stage, int world, int accumulation = 1, bool overlap = false) {
    TrainConfig c;
    c.model.preset = "nano";
    c.model.shape = *findModelPreset("nano");
    c.model.seq_len = 64;
    c.batch.world = world;
    c.batch.micro_batch = 1;
    c.batch.grad_accum = accumulation;
    c.batch.train_batch_size = world * accumulation;
    c.zero.stage = stage;
    c.zero.overlap_comm = overlap;
    return c;
}

StepCosts costs() {
    StepCosts s;
    auto at = [&s](ModelCompute c) -> double& { return s.model[static_cast<std::size_t>(c)]; };
    at(ModelCompute::EncoderForward) = 0.5 * kMs;
    at(ModelCompute::BlockForward) = 1 * kMs;
    at(ModelCompute::HeadForward) = 1 * kMs;
    at(ModelCompute::HeadBackward) = 2 * kMs;
    at(ModelCompute::BlockBackward) = 2 * kMs;
    at(ModelCompute::BlockRecompute) = 0.75 * kMs;
    at(ModelCompute::EncoderBackward) = 0.5 * kMs;
    s.engine_op = [](OpKind k, double) { return k == OpKind::Adamw ? 3 * kMs : 0.0; };
    s.collective = [](Collective, double bytes) { return coll(bytes); };
    return s;
}

// Forward of the nano model: encoder 0.5 + 2 blocks + head 1 = 3.5 ms; backward: head 2 +
// 2 blocks x 2 + encoder 0.5 = 6.5 ms.
constexpr double kForward = 3.5 * kMs, kBackward = 6.5 * kMs, kAdam = 3 * kMs;

std::int64_t padded(const TrainConfig& c, int u) {
    return makeParamLayout(c.model.shape, c.batch.world)
        .units[static_cast<std::size_t>(u)]
        .padded_elems;
}

TEST(StepTime, StageZeroWithoutOverlapReducesAfterBackward) {
    const TrainConfig c = nano(0, 2);
    const StepTimeForecast f = simulateStep(c, costs());
    const double all = static_cast<double>(makeParamLayout(c.model.shape, 2).padded_total) * 4;
    EXPECT_NEAR(f.step_s, kForward + kBackward + coll(all) + kAdam, kEps);
    EXPECT_NEAR(f.forward_s, kForward, kEps);
    EXPECT_NEAR(f.backward_s, kBackward, kEps);
    EXPECT_NEAR(f.optimizer_s, kAdam, kEps);
    ASSERT_EQ(f.collectives.size(), 1u); // one bucket of everything
    EXPECT_NEAR(f.exposed_s[0], coll(all), kEps);
    EXPECT_NEAR(f.comm_exposed_s, f.comm_in_flight_s, kEps);
}

TEST(StepTime, StageZeroOverlapRunsBucketsBesideBackward) {
    TrainConfig c = nano(0, 2, 1, true);
    c.zero.reduce_bucket_size = padded(c, 2); // buckets {2, 3}, {1}, {0}
    const StepTimeForecast f = simulateStep(c, costs());
    const double b23 = static_cast<double>(padded(c, 2) + padded(c, 3)) * 4;
    const double b1 = static_cast<double>(padded(c, 1)) * 4,
                 b0 = static_cast<double>(padded(c, 0)) * 4;
    // Bucket {2, 3} is issued when block 2's backward ends (head 2 + block 2 ms), {1} after
    // block 1, {0} after the encoder; each starts when issued or when the previous ends.
    const double t2 = kForward + 4 * kMs, t1 = t2 + 2 * kMs, t0 = t1 + 0.5 * kMs;
    const double e23 = t2 + coll(b23);
    const double e1 = std::max(t1, e23) + coll(b1);
    const double e0 = std::max(t0, e1) + coll(b0);
    EXPECT_NEAR(f.step_s, e0 + kAdam, kEps);
    ASSERT_EQ(f.collectives.size(), 3u);
    EXPECT_NEAR(f.collectives[0].issue_s, t2, kEps);
    EXPECT_NEAR(f.collectives[1].start_s, std::max(t1, e23), kEps);
    EXPECT_NEAR(f.comm_exposed_s, e0 - t0, kEps);
}

// Compute and progress threads outnumbering the cores: a collective runs at half its rate
// while the compute thread computes, at its full rate once it waits.
TEST(StepTime, ACollectiveBesideComputeRunsAtTheRateBesideComputeUntilComputeWaits) {
    TrainConfig c = nano(0, 2, 1, true);
    c.zero.reduce_bucket_size = padded(c, 2); // buckets {2, 3}, {1}, {0}
    StepCosts k = costs();
    k.comm_rate_beside_compute = 0.5;
    const StepTimeForecast f = simulateStep(c, k);
    const double b23 = static_cast<double>(padded(c, 2) + padded(c, 3)) * 4;
    const double b1 = static_cast<double>(padded(c, 1)) * 4,
                 b0 = static_cast<double>(padded(c, 0)) * 4;
    const double t2 = kForward + 4 * kMs, t1 = t2 + 2 * kMs, t0 = t1 + 0.5 * kMs;
    // {2, 3} from t2: block 1's 2 ms of backward do 1 ms of its work; the rest r at half
    // rate within the encoder's 0.5 ms (r < 0.25 ms for nano).
    const double r = coll(b23) - 1 * kMs;
    ASSERT_LT(r, 0.25 * kMs);
    const double e23 = t1 + 2 * r;
    // {1} from e23: half rate until t0, then the full rate as the compute thread waits.
    const double e1 = t0 + coll(b1) - 0.5 * (t0 - e23);
    const double e0 = e1 + coll(b0); // {0}, issued at t0, after {1}; all at the full rate
    ASSERT_EQ(f.collectives.size(), 3u);
    EXPECT_NEAR(f.collectives[0].start_s, t2, kEps);
    EXPECT_NEAR(f.collectives[0].end_s, e23, kEps);
    EXPECT_NEAR(f.collectives[1].start_s, e23, kEps);
    EXPECT_NEAR(f.collectives[1].end_s, e1, kEps);
    EXPECT_NEAR(f.collectives[2].start_s, e1, kEps);
    EXPECT_NEAR(f.collectives[2].end_s, e0, kEps);
    EXPECT_NEAR(f.step_s, e0 + kAdam, kEps);
    EXPECT_NEAR(f.comm_exposed_s, e0 - t0, kEps);
    // At the full rate it is the schedule above (StageZeroOverlapRunsBucketsBesideBackward).
    EXPECT_LT(simulateStep(c, costs()).step_s, f.step_s);
}

TEST(StepTime, StageThreeOneSlotKeepsTheUnitsAtTheTurn) {
    const TrainConfig c = nano(3, 2);
    const StepTimeForecast f = simulateStep(c, costs());
    auto g = [&](int u) { return coll(static_cast<double>(padded(c, u)) * 4); };
    // Forward gathers 0, 1, 2, 3; backward finds 3 (and the embedding) in their slots and
    // gathers 2 and 1; reduce-scatters of 3, 2, 1, 0; the norm's all-reduce. Nothing
    // overlaps: every collective is waited for at once.
    const double comm =
        g(0) + g(1) + g(2) + g(3) + g(2) + g(1) + g(3) + g(2) + g(1) + g(0) + coll(8);
    EXPECT_NEAR(f.step_s, kForward + kBackward + comm + kAdam, kEps);
    std::vector<int> gathered;
    for (const CollectiveForecast& x : f.collectives)
        if (x.collective == Collective::AllGather)
            gathered.push_back(x.unit);
    EXPECT_EQ(gathered, (std::vector<int>{0, 1, 2, 3, 2, 1}));
    EXPECT_NEAR(f.comm_exposed_s, f.comm_in_flight_s, kEps);
}

TEST(StepTime, StageThreeTwoSlotsPrefetchTheNextUnit) {
    const TrainConfig c = nano(3, 2, 1, true);
    const StepTimeForecast f = simulateStep(c, costs());
    std::vector<int> gathered;
    for (const CollectiveForecast& x : f.collectives)
        if (x.collective == Collective::AllGather)
            gathered.push_back(x.unit);
    // Backward starts with units 3 and 2 in the two slots; unit 1 is prefetched.
    EXPECT_EQ(gathered, (std::vector<int>{0, 1, 2, 3, 1}));
    auto g = [&](int u) { return coll(static_cast<double>(padded(c, u)) * 4); };
    // Forward: gather 0 (waited), encoder; gather 1 (waited), then 2 is prefetched and runs
    // during block 1; at block 2 the compute waits for what is left of it, and so on.
    const double a1 = g(0) + 0.5 * kMs; // unit 1's gather issued
    const double e1 = a1 + g(1);        // waited; prefetch of 2 issued now
    const double e2 = e1 + g(2);
    const double t2 = e1 + 1 * kMs; // block 1 done: unit 2 asked for
    ASSERT_GE(f.collectives.size(), 5u);
    EXPECT_NEAR(f.collectives[2].issue_s, e1, kEps);
    EXPECT_NEAR(f.collectives[2].exposed_s, std::max(0.0, e2 - t2), kEps);
}

TEST(StepTime, AccumulationReducesEveryMicroStepFromStageTwo) {
    auto count = [](const StepTimeForecast& f, Collective c) {
        int n = 0;
        for (const CollectiveForecast& x : f.collectives)
            n += x.collective == c;
        return n;
    };
    const StepTimeForecast one = simulateStep(nano(1, 2, 2), costs());
    const StepTimeForecast two = simulateStep(nano(2, 2, 2), costs());
    // Stage 1 reduce-scatters its 4 units once, at the boundary; stage 2 in both micro-steps.
    EXPECT_EQ(count(one, Collective::ReduceScatter), 4);
    EXPECT_EQ(count(two, Collective::ReduceScatter), 8);
    EXPECT_EQ(count(one, Collective::AllGather), 4); // the parameter sync
    EXPECT_EQ(count(two, Collective::AllGather), 4);
    EXPECT_NEAR(one.forward_s, 2 * kForward, kEps);
    // Stage 1 without overlap: micro-step 0 communicates nothing; everything is exposed.
    const TrainConfig c = nano(1, 2, 2);
    double rs = 0, ag = 0;
    for (int u = 0; u < 4; ++u) {
        rs += coll(static_cast<double>(padded(c, u)) * 4);
        ag += coll(static_cast<double>(padded(c, u)) * 4);
    }
    // The sync's all-gathers are issued together and run one after another.
    EXPECT_NEAR(one.step_s, 2 * (kForward + kBackward) + rs + coll(8) + kAdam + ag, kEps);
}

TEST(StepTime, FullRecomputeAddsTheBlocksForwardToBackward) {
    TrainConfig c = nano(0, 1);
    const double before = simulateStep(c, costs()).step_s;
    c.model.recompute = Recompute::Full;
    const StepTimeForecast f = simulateStep(c, costs());
    EXPECT_NEAR(f.recompute_s, 2 * 0.75 * kMs, kEps);
    EXPECT_NEAR(f.step_s - before, 2 * 0.75 * kMs, kEps);
}

MachineProfile madeUpProfile() {
    MachineProfile p;
    p.source = "preset";
    p.name = "made-up";
    p.cores = 2;
    p.oversubscription_factor = 1.25;
    p.rates.fill(1e12);
    p.rates[static_cast<std::size_t>(OpKind::MatmulForward)] = 1e9;
    p.intra_link = LinkSpec{"x", "x", 1e9, 1e-6};
    return p;
}

TEST(StepTime, RanksBeyondTheCoresShareThem) {
    const MachineProfile p = madeUpProfile();
    double two = 0, four = 0;
    const StepCosts c2 = stepCosts(nano(0, 2), p, {}, &two);
    const StepCosts c4 = stepCosts(nano(0, 4), p, {}, &four);
    EXPECT_EQ(two, 1.0);
    EXPECT_EQ(four, 2.0 * 1.25); // 4 ranks on 2 cores, at the measured extra cost
    const auto fwd = static_cast<std::size_t>(ModelCompute::BlockForward);
    EXPECT_NEAR(c4.model[fwd], c2.model[fwd] * 2.5, 1e-15);
    // Measured slowdowns win; on emulated hosts every host's ranks share the machine.
    MachineProfile q = p;
    q.compute_slowdown = {{4, 3.0}};
    double measured = 0;
    stepCosts(nano(0, 4), q, {}, &measured);
    EXPECT_EQ(measured, 3.0);
    q.inter_link = q.intra_link;
    stepCosts(nano(0, 4), q, {2}, &measured);
    EXPECT_EQ(measured, 1.0); // 2 ranks a host on 2 cores
    q.hosts_share_cores = true;
    stepCosts(nano(0, 4), q, {2}, &measured);
    EXPECT_EQ(measured, 3.0);
    // The preset link: a ring all-reduce of N = 4 pays 2(N-1) latencies and 2(N-1)/N bytes.
    EXPECT_NEAR(c4.collective(Collective::AllReduce, 1e6), 6e-6 + 1.5e6 / 1e9, 1e-15);
}

// A collective's rate beside compute is the profile's for the run's link class and ranks,
// else 1 (a preset, or no measurement at that rank count); the forecast says which.
TEST(StepTime, TheRateBesideComputeIsTheProfilesForTheLinkAndTheRanks) {
    MachineProfile p = madeUpProfile();
    EXPECT_EQ(stepCosts(nano(0, 2), p, {}).comm_rate_beside_compute, 1.0);
    p.comm_beside_compute = {{LinkClass::IntraHost, 2, 0.1},
                             {LinkClass::IntraHost, 4, 0.05},
                             {LinkClass::InterHost, 4, 0.8}};
    EXPECT_EQ(stepCosts(nano(0, 2), p, {}).comm_rate_beside_compute, 0.1);
    EXPECT_EQ(stepCosts(nano(0, 4), p, {}).comm_rate_beside_compute, 0.05);
    p.inter_link = p.intra_link;
    // Across hosts, the inter-host measurement over the collective's ranks.
    EXPECT_EQ(stepCosts(nano(0, 4), p, {2}).comm_rate_beside_compute, 0.8);
    EXPECT_EQ(stepCosts(nano(0, 2), p, {2}).comm_rate_beside_compute, 1.0); // none at 2
    const StepTimeForecast f = predictStepTime(nano(0, 2, 1, true), p, {});
    EXPECT_TRUE(std::any_of(f.assumptions.begin(), f.assumptions.end(), [](const std::string& a) {
        return a.find("at 10% of their rate while the ranks compute") != std::string::npos;
    }));
}

// In-situ pieces (ModelPieceTimes) price the model's compute where the profile has the
// config's shape at its B, T; kernel rates elsewhere. Selective recompute is the kernels'
// estimate scaled by the block forward's in-situ/kernel ratio.
TEST(StepTime, InSituPiecesPriceTheModelWhereTheProfileHasThem) {
    MachineProfile p = madeUpProfile();
    const TrainConfig c = nano(0, 2);
    const StepCosts fromKernels = stepCosts(c, p, {});
    EXPECT_FALSE(fromKernels.model_in_situ);
    const ModelShape& s = c.model.shape;
    ModelPieceTimes t{s.n_layer, s.n_head, s.n_embd, s.vocab_size, s.padded_vocab_size, 64, 1, {}};
    for (std::size_t i = 1; i < kModelComputeCount; ++i)
        t.seconds[i] = 1e-3 * static_cast<double>(i);
    p.pieces.push_back(t);
    p.pieces.push_back(t);
    p.pieces.back().micro_batch = 2; // another B: not this config's
    const auto fwd = static_cast<std::size_t>(ModelCompute::BlockForward);
    const auto rec = static_cast<std::size_t>(ModelCompute::BlockRecompute);
    const StepCosts inSitu = stepCosts(c, p, {});
    EXPECT_TRUE(inSitu.model_in_situ);
    for (std::size_t i = 1; i < kModelComputeCount; ++i)
        EXPECT_EQ(inSitu.model[i], i == rec ? 0.0 : t.seconds[i]) << kModelComputeNames[i];
    TrainConfig full = c;
    full.model.recompute = Recompute::Full;
    EXPECT_EQ(stepCosts(full, p, {}).model[rec], t.seconds[rec]);
    TrainConfig selective = c;
    selective.model.recompute = Recompute::Selective;
    const StepCosts sel = stepCosts(selective, p, {});
    const StepCosts selKernels = stepCosts(selective, madeUpProfile(), {});
    ASSERT_GT(selKernels.model[rec], 0);
    EXPECT_NEAR(sel.model[rec], selKernels.model[rec] * t.seconds[fwd] / selKernels.model[fwd],
                1e-15);
    // Sharing slows the in-situ pieces as it slows kernels.
    double scale = 0;
    const StepCosts shared = stepCosts(nano(0, 4), p, {}, &scale);
    EXPECT_EQ(scale, 2.5); // 4 ranks on 2 cores at the profile's extra cost
    EXPECT_NEAR(shared.model[fwd], 2.5 * t.seconds[fwd], 1e-15);
    const auto said = predictStepTime(c, p).assumptions;
    EXPECT_TRUE(std::any_of(said.begin(), said.end(), [](const std::string& a) {
        return a.find("timed it in situ at micro-batch 1, T 64") != std::string::npos;
    }));
}

TEST(StepTime, AZeroPPConfigSaysTheModelForecastsPlainStageThree) {
    const MachineProfile p = madeUpProfile();
    auto saysZeroPP = [&](const TrainConfig& c) {
        const auto said = predictStepTime(c, p).assumptions;
        return std::any_of(said.begin(), said.end(), [](const std::string& a) {
            return a.find("ZeRO++") != std::string::npos &&
                   a.find("plain stage 3") != std::string::npos;
        });
    };
    TrainConfig c = nano(3, 4);
    EXPECT_FALSE(saysZeroPP(c));
    c.zero.quantized_weights = true;
    EXPECT_TRUE(saysZeroPP(c));
    c.zero.quantized_weights = false;
    c.zero.hpz_partition_size = 2;
    EXPECT_TRUE(saysZeroPP(c));
}

TEST(StepTime, PredictGivesTokensPerSecondAndMfu) {
    const MachineProfile p = madeUpProfile();
    const StepTimeForecast f = predictStepTime(nano(1, 2, 2), p);
    EXPECT_NEAR(f.tokens_per_s, 2 * 1 * 64 * 2 / f.step_s, 1e-6);
    EXPECT_GT(f.mfu, 0);
    EXPECT_LT(f.mfu, 1);
    EXPECT_FALSE(f.assumptions.empty());
    EXPECT_THROW(predictStepTime(nano(1, 4), p, {3}), PlanError); // 3 hosts do not divide 4
}

// A profile made in code (a preset at --matmul-fraction 1e-320, say) is not read through
// the reader's bounds: a forecast that is not a finite number is refused, never given.
TEST(StepTime, ANonFiniteForecastIsRefused) {
    MachineProfile p = madeUpProfile();
    p.rates.fill(1e-320);
    try {
        predictStepTime(nano(1, 2), p);
        ADD_FAILURE() << "gave a forecast on rates of 1e-320";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("not a finite number"), std::string::npos) << e.what();
    }
    p = madeUpProfile();
    p.rates.fill(1e3);
    p.compute_slowdown = {{2, 1e308}};
    EXPECT_THROW(predictStepTime(nano(1, 2), p), PlanError);
    p = madeUpProfile();
    p.intra_link->latency_s = 1e308;
    EXPECT_THROW(predictStepTime(nano(1, 2), p), PlanError);
}

} // namespace
} // namespace zerolab
