// The planner's model-state formulas against published figures: the ZeRO paper's
// Figure 1 (7.5B on 64 GPUs), the fp32 (K = 8) layout, llm.c's ZeRO-1 layout;
// plus the verdict logic and the error paths.
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/zeropp_plan.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace zerolab;

namespace {

PlanInput bare(double psi, int world, Precision p = Precision::Bf16Mixed) {
    PlanInput in;
    in.params = psi;
    in.world = world;
    in.precision = p;
    return in;
}

double gb(long long bytes) {
    return static_cast<double>(bytes) / 1e9;
}

} // namespace

TEST(PlannerPaper, Figure1SevenPointFiveBillionOn64Gpus) {
    const Plan p = plan(bare(7.5e9, 64));
    const double expected[4] = {120.0, 31.4, 16.6, 1.9};
    for (int s = 0; s < 4; ++s)
        EXPECT_NEAR(gb(p.stages[s].model_states_bytes), expected[s], 0.05) << "stage " << s;
    // Exact bytes: 16 psi, 4 psi + 12 psi/N, 2 psi + 14 psi/N, 16 psi/N.
    EXPECT_EQ(p.stages[0].model_states_bytes, 120'000'000'000LL);
    EXPECT_EQ(p.stages[1].model_states_bytes, 30'000'000'000LL + 1'406'250'000LL);
    EXPECT_EQ(p.stages[2].model_states_bytes, 15'000'000'000LL + 1'640'625'000LL);
    EXPECT_EQ(p.stages[3].model_states_bytes, 1'875'000'000LL);
}

TEST(PlannerPaper, MixedCategoriesFollowTheStage) {
    const long long psi = 6'400'000'000LL;
    const int n = 16;
    const Plan p = plan(bare(static_cast<double>(psi), n));
    const MemBreakdown& s1 = p.stages[1].per_rank;
    EXPECT_EQ(s1[MemCategory::Params], 2 * psi);
    EXPECT_EQ(s1[MemCategory::Grads], 2 * psi);
    EXPECT_EQ(s1[MemCategory::MasterParams], 4 * psi / n);
    EXPECT_EQ(s1[MemCategory::OptimM], 4 * psi / n);
    EXPECT_EQ(s1[MemCategory::OptimV], 4 * psi / n);
    EXPECT_EQ(p.stages[2].per_rank[MemCategory::Grads], 2 * psi / n);
    EXPECT_EQ(p.stages[2].per_rank[MemCategory::Params], 2 * psi);
    EXPECT_EQ(p.stages[3].per_rank[MemCategory::Params], 2 * psi / n);
    EXPECT_EQ(p.stages[0].per_rank[MemCategory::MasterParams], 4 * psi);
}

TEST(PlannerPaper, Fp32HasNoMasterAndKEight) {
    const long long psi = 1'000'000'000LL;
    const int n = 8;
    const Plan p = plan(bare(static_cast<double>(psi), n, Precision::Fp32));
    EXPECT_EQ(p.stages[0].model_states_bytes, 16 * psi);
    EXPECT_EQ(p.stages[1].model_states_bytes, 8 * psi + 8 * psi / n);
    EXPECT_EQ(p.stages[2].model_states_bytes, 4 * psi + 12 * psi / n);
    EXPECT_EQ(p.stages[3].model_states_bytes, 16 * psi / n);
    for (const StagePlan& s : p.stages)
        EXPECT_EQ(s.per_rank[MemCategory::MasterParams], 0);
}

// llm.c's ZeRO-1: bf16 params and grads replicated, fp32 m, v (and master with -w 1)
// sharded. GPT-2 124M (padded vocabulary) on 8 ranks.
TEST(PlannerLlmc, ZeroOneLayoutWithAndWithoutMaster) {
    const long long psi = 124'475'904LL;
    const int n = 8;
    PlanInput in = bare(static_cast<double>(psi), n);
    EXPECT_EQ(plan(in).stages[1].model_states_bytes, 4 * psi + 12 * psi / n);
    in.master_weights = false;
    const Plan p = plan(in);
    EXPECT_EQ(p.stages[1].model_states_bytes, 4 * psi + 8 * psi / n);
    EXPECT_EQ(p.stages[1].per_rank[MemCategory::MasterParams], 0);
}

TEST(PlannerVerdict, LowestStageAndSmallestWorld) {
    PlanInput in = bare(6.7e9, 8);
    in.stage = 0;
    in.activation_bytes = 10'000'000'000LL;
    in.device = customDevice(80'000'000'000LL);
    const Plan p = plan(in);
    const long long buckets = 500'000'000LL * 2;
    EXPECT_EQ(p.stages[0].total_bytes, 107'200'000'000LL + 10'000'000'000LL + buckets);
    EXPECT_FALSE(p.verdict.fits);
    EXPECT_EQ(p.verdict.margin_bytes, 80'000'000'000LL - p.stages[0].total_bytes);
    ASSERT_TRUE(p.verdict.lowest_stage.has_value());
    EXPECT_EQ(*p.verdict.lowest_stage, 1);
    EXPECT_FALSE(p.verdict.smallest_world[0].has_value());
    for (int s = 1; s < 4; ++s) {
        ASSERT_TRUE(p.verdict.smallest_world[s].has_value()) << "stage " << s;
        EXPECT_EQ(*p.verdict.smallest_world[s], 2) << "stage " << s;
    }
    // At the smallest N the stage fits, one rank fewer it does not.
    in.world = 2;
    in.stage = 1;
    EXPECT_TRUE(plan(in).verdict.fits);
    in.world = 1;
    EXPECT_FALSE(plan(in).verdict.fits);
}

TEST(PlannerVerdict, NothingFitsATinyDevice) {
    PlanInput in = bare(7.5e9, 64);
    in.device = customDevice(1'000'000);
    const Plan p = plan(in);
    EXPECT_FALSE(p.verdict.lowest_stage.has_value());
    EXPECT_FALSE(p.verdict.fits);
    EXPECT_LT(p.verdict.margin_bytes, 0);
    // The replicated reduce bucket alone (1 GB) never shrinks with N.
    EXPECT_FALSE(p.verdict.smallest_world[3].has_value());
}

TEST(PlannerVerdict, StageThreeNeedsFewerRanksThanStageOne) {
    PlanInput in = bare(175e9, 64);
    in.device = *findDevice("h100-80");
    in.reduce_bucket_elements = 1'000'000;
    in.allgather_bucket_elements = 1'000'000;
    const Plan p = plan(in);
    ASSERT_TRUE(p.verdict.smallest_world[3].has_value());
    // 16 psi / N <= capacity - reserve - buffers: the H100's 81559 MiB = 85.52e9 bytes
    // less the default reserve of 1 GiB + 5% (5101 MiB = 5.35e9), so
    // N >= 2800e9 / (80.17e9 - 4e6): 35.
    EXPECT_EQ(p.verdict.reserve_bytes, (1024 + 81559 / 20) * 1024LL * 1024);
    EXPECT_EQ(*p.verdict.smallest_world[3], 35);
    EXPECT_FALSE(p.verdict.smallest_world[1].has_value()); // 4 psi = 700 GB replicated
    ASSERT_TRUE(p.verdict.lowest_stage.has_value());
    EXPECT_EQ(*p.verdict.lowest_stage, 3);
}

TEST(PlannerErrors, InvalidInputsThrowPlanErrorNamingTheField) {
    auto message = [](PlanInput in) {
        try {
            plan(in);
        } catch (const PlanError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    PlanInput in = bare(1e9, 8);
    in.world = 0;
    EXPECT_NE(message(in).find("world"), std::string::npos);
    in = bare(1e9, 8);
    in.stage = 4;
    EXPECT_NE(message(in).find("stage"), std::string::npos);
    in = bare(-5, 8);
    EXPECT_NE(message(in).find("params"), std::string::npos);
    in = bare(0, 8);
    EXPECT_NE(message(in).find("params"), std::string::npos);
    in = bare(NAN, 8);
    EXPECT_NE(message(in).find("params"), std::string::npos);
    in = bare(1e9, 8);
    in.bandwidth_gbps = 0;
    EXPECT_NE(message(in).find("bandwidth"), std::string::npos);
    in = bare(1e9, 8);
    in.grad_accumulation = 0;
    EXPECT_NE(message(in).find("grad_accumulation"), std::string::npos);
    in = bare(1e9, 8);
    in.reduce_bucket_elements = 0;
    EXPECT_NE(message(in).find("reduce_bucket"), std::string::npos);
    in = bare(1e9, 8);
    in.activation_bytes = -1;
    EXPECT_NE(message(in).find("activation_bytes"), std::string::npos);
    in = bare(1e9, 8);
    in.shape = *findModelPreset("nano");
    in.micro_batch = 1;
    in.seq_len = 65;
    EXPECT_NE(message(in).find("seq_len"), std::string::npos);
    in = bare(1e9, 8);
    in.device.capacity_bytes = 0;
    EXPECT_NE(message(in).find("capacity"), std::string::npos);
    EXPECT_THROW(customDevice(0), PlanError);
    EXPECT_FALSE(findDevice("a100-81").has_value());
}

// The world's ring split by link class without listing its hosts (what plan() uses at every
// N) equals the split over the listed hosts, for worlds that fill their last host or not.
TEST(PlannerLinkTraffic, WorldRingMatchesTheListedHosts) {
    for (int world : {1, 2, 3, 4, 7, 8, 16, 24, 1000})
        for (int rph : {0, 1, 2, 3, 8, 64}) {
            const LinkTraffic listed =
                ringLinkTraffic(100.0, withinGroupHosts(0, world, std::clamp(rph, 1, world)));
            const LinkTraffic counted = worldRingLinkTraffic(100.0, world, rph);
            EXPECT_DOUBLE_EQ(counted.across, listed.across) << "N = " << world << ", " << rph;
            EXPECT_DOUBLE_EQ(counted.within, listed.within) << "N = " << world << ", " << rph;
        }
}
