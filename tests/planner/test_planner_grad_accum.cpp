// bf16 with fp32 gradients (data_types.grad_accum_dtype "fp32"): the chapter's gradient
// precision in ZeRO's layout. Model states 18 psi at stage 0 (the chapter's own figure),
// 6 psi + 12 psi / N at stage 1 (the chapter's 10 psi + 8 psi / N minus the replicated
// master ZeRO shards), 2 psi + 16 psi / N, 18 psi / N; fp32 gradient collectives; and
// for zerolab's own GPT-2 exactly the engine's buffers.
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

using namespace zerolab;

namespace {

PlanInput fp32Grads(double psi, int world) {
    PlanInput in;
    in.params = psi;
    in.world = world;
    in.precision = Precision::Bf16Mixed;
    in.grad_accum_fp32 = true;
    return in;
}

} // namespace

TEST(PlannerGradAccumFp32, EighteenPsiAndZerosShardsOfIt) {
    const long long psi = 1'000'000'000LL;
    const int n = 4;
    const Plan p = plan(fp32Grads(static_cast<double>(psi), n));
    EXPECT_EQ(p.stages[0].model_states_bytes, 18 * psi);
    EXPECT_EQ(p.stages[1].model_states_bytes, 6 * psi + 12 * psi / n);
    EXPECT_EQ(p.stages[2].model_states_bytes, 2 * psi + 16 * psi / n);
    EXPECT_EQ(p.stages[3].model_states_bytes, 18 * psi / n);
    EXPECT_EQ(p.stages[1].per_rank[MemCategory::Grads], 4 * psi);
    EXPECT_EQ(p.stages[2].per_rank[MemCategory::Grads], 4 * psi / n);
    EXPECT_EQ(p.stages[1].per_rank[MemCategory::Params], 2 * psi);
    // Gradients travel in fp32, parameters in bf16: stage 1 reduce-scatters 4 bytes and
    // all-gathers 2 bytes an element.
    EXPECT_DOUBLE_EQ(p.stages[1].comm_bytes, psi * 4.0 + psi * 2.0);
    EXPECT_DOUBLE_EQ(p.stages[1].traffic[Collective::ReduceScatter], psi * 4.0 * (n - 1) / n);
    EXPECT_DOUBLE_EQ(p.stages[1].traffic[Collective::AllGather], psi * 2.0 * (n - 1) / n);
    EXPECT_NE(explain(fp32Grads(static_cast<double>(psi), n), 1).find("fp32 gradients"),
              std::string::npos);
}

// What stays different from the chapter's layout at stage 1: only its replicated fp32
// master (4 psi on every rank where ZeRO keeps 4 psi / N); the rest is the same bytes.
TEST(PlannerGradAccumFp32, DiffersFromTheChapterOnlyByTheReplicatedMaster) {
    const long long psi = 6'700'000'000LL;
    const int n = 8;
    PlanInput chapter = fp32Grads(static_cast<double>(psi), n);
    chapter.grad_accum_fp32 = false;
    chapter.convention = Convention::Chapter;
    const Plan c = plan(chapter);
    const Plan z = plan(fp32Grads(static_cast<double>(psi), n));
    EXPECT_EQ(c.stages[0].model_states_bytes, z.stages[0].model_states_bytes);
    EXPECT_EQ(c.stages[1].model_states_bytes, 10 * psi + 8 * psi / n);
    EXPECT_EQ(c.stages[1].model_states_bytes - z.stages[1].model_states_bytes,
              4 * psi - 4 * psi / n);
    for (MemCategory cat :
         {MemCategory::Params, MemCategory::Grads, MemCategory::OptimM, MemCategory::OptimV})
        EXPECT_EQ(c.stages[1].per_rank[cat], z.stages[1].per_rank[cat]) << memCategoryName(cat);
}

// For zerolab's own GPT-2 the plan is the engine's buffer plan in every category: fp32
// gradient buffers, no fp32 staging slot at stages 0-1 (the model accumulates into the
// fp32 buffer), fp32 reduce-scatter slots at stages 2-3.
TEST(PlannerGradAccumFp32, OwnGpt2IsTheEngineBufferPlan) {
    const ModelShape shape = *findModelPreset("micro");
    for (bool overlap : {false, true})
        for (int world : {1, 2, 3, 4}) {
            PlanInput in;
            in.shape = shape;
            in.world = world;
            in.micro_batch = 2;
            in.seq_len = 64;
            in.precision = Precision::Bf16Mixed;
            in.grad_accum_fp32 = true;
            in.overlap_comm = overlap;
            const Plan p = plan(in);
            const ParamLayout layout = makeParamLayout(shape, world);
            for (int s = 0; s < 4; ++s) {
                const EngineBufferPlan engine = planEngineBuffers(
                    layout, world, s, Precision::Bf16Mixed, overlap, /*grad_accum_fp32=*/true);
                EXPECT_TRUE(engine.grads_fp32);
                MemBreakdown planned = p.stages[s].per_rank;
                planned[MemCategory::Activations] = 0;
                EXPECT_EQ(planned.bytes, engine.bytes().bytes)
                    << "stage " << s << " world " << world << " overlap " << overlap;
                EXPECT_TRUE(p.stages[s].engine_buffers);
                EXPECT_EQ(planned[MemCategory::Grads],
                          4 * (s >= 2 ? layout.padded_total / world : layout.padded_total));
            }
            const EngineBufferPlan bf16Grads =
                planEngineBuffers(layout, world, 1, Precision::Bf16Mixed, overlap);
            const EngineBufferPlan f32Grads =
                planEngineBuffers(layout, world, 1, Precision::Bf16Mixed, overlap, true);
            EXPECT_GT(bf16Grads.grad_staging, 0);
            EXPECT_EQ(f32Grads.grad_staging, 0);
        }
}
