// Activations, comm buffers, padding and communication volume: the pieces the
// runtime allocates and moves, checked against the model's own layouts.
#include "runtime/model/activation_layout.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace zerolab;

namespace {

PlanInput gpt2(int world, int B, int T) {
    PlanInput in;
    in.shape = *findModelPreset("gpt2-124m");
    in.world = world;
    in.micro_batch = B;
    in.seq_len = T;
    return in;
}

} // namespace

TEST(PlannerShape, PsiAndPaddingComeFromTheModelLayouts) {
    const PlanInput in = gpt2(5, 4, 64);
    const Plan p = plan(in);
    EXPECT_EQ(p.psi, paramCount(*in.shape));
    EXPECT_EQ(p.psi_padded, makeParamLayout(*in.shape, 5).padded_total);
    EXPECT_GT(p.psi_padded, p.psi);
    EXPECT_EQ(p.psi_padded % 5, 0);
    // Sharded states are the padded buffer / N; replicated ones the padded buffer.
    EXPECT_EQ(p.stages[1].per_rank[MemCategory::OptimM], 4 * p.psi_padded / 5);
    EXPECT_EQ(p.stages[1].per_rank[MemCategory::Params], 2 * p.psi_padded);
}

TEST(PlannerShape, ActivationsEqualTheModelsArena) {
    PlanInput in = gpt2(2, 4, 64);
    const ActivationFootprint fp = activationFootprint(*in.shape, 4, 64);
    Plan p = plan(in);
    const long long full = fp.total(in.shape->n_layer);
    for (const StagePlan& s : p.stages) {
        EXPECT_TRUE(s.activations_known);
        EXPECT_EQ(s.activation_bytes, full);
        EXPECT_EQ(s.per_rank[MemCategory::Activations], full);
    }
    // Every mode is the model's arena in that mode; recomputing keeps less.
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        const long long bytes = activationFootprint(*in.shape, 4, 64, r).total(in.shape->n_layer);
        EXPECT_EQ(p.stages[0].activation_bytes_by_mode[static_cast<std::size_t>(r)], bytes);
        in.recompute = r;
        const Plan q = plan(in);
        EXPECT_EQ(q.stages[2].per_rank[MemCategory::Activations], bytes) << recomputeName(r);
        EXPECT_EQ(q.stages[2].activation_bytes, bytes);
    }
    const auto& by = p.stages[0].activation_bytes_by_mode;
    EXPECT_LT(by[2], by[1]);
    EXPECT_LT(by[1], by[0]);
}

// The attention kernel is part of the shape: with flash attention the forecast is the
// flash arena (no (B,NH,T,T) buffers) in every recompute mode, and less than standard's.
TEST(PlannerShape, ActivationsFollowTheAttentionKernel) {
    PlanInput in = gpt2(2, 4, 64);
    const PlanInput standard = in;
    in.shape->attention = AttentionKernel::Flash;
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        in.recompute = r;
        const long long bytes = activationFootprint(*in.shape, 4, 64, r).total(in.shape->n_layer);
        const Plan q = plan(in);
        EXPECT_EQ(q.stages[2].per_rank[MemCategory::Activations], bytes) << recomputeName(r);
        EXPECT_EQ(q.stages[0].activation_bytes_by_mode[static_cast<std::size_t>(r)], bytes);
        EXPECT_LT(bytes,
                  activationFootprint(*standard.shape, 4, 64, r).total(standard.shape->n_layer));
    }
}

TEST(PlannerShape, ActivationsUnknownWithoutMicroBatch) {
    PlanInput in = gpt2(2, 0, 0);
    const Plan p = plan(in);
    EXPECT_FALSE(p.stages[0].activations_known);
    EXPECT_EQ(p.stages[0].per_rank[MemCategory::Activations], 0);
}

// zerolab's own GPT-2: every category but activations is what the engine allocates
// (engine_buffers.h), activations what the model's arena holds.
TEST(PlannerBuffers, OwnGpt2MatchesTheEngineBufferPlan) {
    for (Precision prec : {Precision::Fp32, Precision::Bf16Mixed})
        for (bool overlap : {false, true})
            for (int world : {1, 2, 3, 4}) {
                PlanInput in = gpt2(world, 2, 64);
                in.shape = *findModelPreset("micro");
                in.precision = prec;
                in.overlap_comm = overlap;
                const Plan p = plan(in);
                const ParamLayout layout = makeParamLayout(*in.shape, world);
                for (int s = 0; s < 4; ++s) {
                    const MemBreakdown engine =
                        planEngineBuffers(layout, world, s, prec, overlap).bytes();
                    MemBreakdown planned = p.stages[s].per_rank;
                    EXPECT_EQ(planned[MemCategory::Activations],
                              activationFootprint(*in.shape, 2, 64).total(in.shape->n_layer));
                    planned[MemCategory::Activations] = 0;
                    EXPECT_EQ(planned.bytes, engine.bytes)
                        << "stage " << s << " world " << world << " overlap " << overlap;
                    EXPECT_TRUE(p.stages[s].engine_buffers);
                }
            }
}

// Other layouts (here the chapter's, which the engine does not run) get DeepSpeed's
// buckets: a reduce bucket at the grad dtype (the chapter's fp32 at stages 0-1, ZeRO's
// bf16 at 2-3), for stage 3 the largest gather unit.
TEST(PlannerBuffers, ReduceBucketAndStageThreeGatherUnit) {
    PlanInput in = gpt2(4, 1, 64);
    in.convention = Convention::Chapter;
    in.reduce_bucket_elements = 1'000'000;
    const Plan p = plan(in);
    for (int s = 0; s < 3; ++s) {
        EXPECT_EQ(p.stages[s].comm_buffer_bytes, 1'000'000LL * (s < 2 ? 4 : 2)) << s;
        EXPECT_FALSE(p.stages[s].engine_buffers);
    }
    std::int64_t largest = 0;
    for (const UnitLayout& u : makeParamLayout(*in.shape, 4).units)
        largest = std::max(largest, u.padded_elems);
    EXPECT_EQ(largest, makeParamLayout(*in.shape, 4).units[0].padded_elems); // the embedding
    EXPECT_EQ(p.stages[3].comm_buffer_bytes, 1'000'000LL * 2 + largest * 2);
    EXPECT_EQ(p.stages[3].per_rank[MemCategory::CommBuffers], p.stages[3].comm_buffer_bytes);
    EXPECT_EQ(p.stages[3].workspace_bytes, 0);
}

TEST(PlannerBuffers, BareSizeUsesBucketsCappedByPsi) {
    PlanInput in;
    in.params = 1000;
    in.world = 4;
    in.precision = Precision::Fp32;
    const Plan p = plan(in);
    EXPECT_EQ(p.stages[0].comm_buffer_bytes, 1000 * 4);
    EXPECT_EQ(p.stages[3].comm_buffer_bytes, 1000 * 4 + 1000 * 4);
    EXPECT_EQ(p.stages[3].workspace_bytes, 0);
}

TEST(PlannerComm, TwoPsiForStagesZeroToTwoThreePsiForStageThree) {
    PlanInput in;
    in.params = 1e9;
    in.world = 8;
    in.bandwidth_gbps = 50;
    const Plan p = plan(in);
    for (int s = 0; s < 3; ++s)
        EXPECT_DOUBLE_EQ(p.stages[s].comm_elements, 2e9) << s;
    EXPECT_DOUBLE_EQ(p.stages[3].comm_elements, 3e9);
    EXPECT_DOUBLE_EQ(p.stages[1].comm_bytes, 4e9); // bf16
    // Ring traffic: bytes x (N-1)/N at 50 GB/s.
    EXPECT_DOUBLE_EQ(p.stages[3].comm_seconds, 6e9 * 7 / 8 / 50e9);
    in.world = 1;
    EXPECT_DOUBLE_EQ(plan(in).stages[0].comm_seconds, 0);
}

TEST(PlannerComm, AccumulationRepeatsOnlyTheStageTwoAndThreeCollectives) {
    PlanInput in;
    in.params = 1e9;
    in.world = 8;
    in.grad_accumulation = 4;
    const Plan p = plan(in);
    EXPECT_DOUBLE_EQ(p.stages[0].comm_elements, 2e9);
    EXPECT_DOUBLE_EQ(p.stages[1].comm_elements, 2e9);
    EXPECT_DOUBLE_EQ(p.stages[2].comm_elements, 5e9); // 4 reduce-scatters + 1 all-gather
    EXPECT_DOUBLE_EQ(p.stages[3].comm_elements, 12e9);
}
