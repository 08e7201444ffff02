// planEngineBuffers against docs/architecture.md's per-rank model-state formulas, for every
// stage, both precisions and N in 1..4, up to the per-unit padding.
#include "runtime/planner/engine_buffers.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

double states(const MemBreakdown& b) {
    return static_cast<double>(b[MemCategory::Params] + b[MemCategory::MasterParams] +
                               b[MemCategory::Grads] + b[MemCategory::OptimM] +
                               b[MemCategory::OptimV]);
}

double formula(Precision p, int stage, double psi, double n) {
    if (p == Precision::Bf16Mixed) {
        const double k[4][2] = {{16, 0}, {4, 12}, {2, 14}, {0, 16}};
        return k[stage][0] * psi + k[stage][1] * psi / n;
    }
    const double k[4][2] = {{16, 0}, {8, 8}, {4, 12}, {0, 16}};
    return k[stage][0] * psi + k[stage][1] * psi / n;
}

TEST(EngineBuffers, ModelStatesMatchDesignFormulas) {
    const ModelShape shape = *findModelPreset("micro");
    const double psi = static_cast<double>(paramCount(shape));
    for (Precision p : {Precision::Fp32, Precision::Bf16Mixed})
        for (int n = 1; n <= 4; ++n) {
            const ParamLayout layout = makeParamLayout(shape, n);
            for (int stage = 0; stage <= 3; ++stage) {
                const auto plan = planEngineBuffers(layout, n, stage, p, false);
                const double padding = 16.0 * layout.unitCount() * n;
                EXPECT_NEAR(states(plan.bytes()), formula(p, stage, psi, n), padding)
                    << "stage " << stage << " n " << n;
            }
        }
}

TEST(EngineBuffers, ShardedStagesShrinkWithWorld) {
    const ModelShape shape = *findModelPreset("mini");
    for (int stage = 1; stage <= 3; ++stage) {
        const auto two =
            planEngineBuffers(makeParamLayout(shape, 2), 2, stage, Precision::Fp32, true);
        const auto four =
            planEngineBuffers(makeParamLayout(shape, 4), 4, stage, Precision::Fp32, true);
        EXPECT_LT(states(four.bytes()), states(two.bytes())) << "stage " << stage;
    }
}

TEST(EngineBuffers, CommBuffersFollowStageAndOverlap) {
    const ModelShape shape = *findModelPreset("nano");
    const ParamLayout layout = makeParamLayout(shape, 2);
    const auto s1 = planEngineBuffers(layout, 2, 1, Precision::Fp32, true);
    EXPECT_EQ(s1.bytes()[MemCategory::CommBuffers], 0); // in-place all-reduce on the grads
    const auto s2 = planEngineBuffers(layout, 2, 2, Precision::Fp32, false);
    const auto s2o = planEngineBuffers(layout, 2, 2, Precision::Fp32, true);
    EXPECT_EQ(s2o.bytes()[MemCategory::CommBuffers] - s2.bytes()[MemCategory::CommBuffers],
              s2.block_slot * 4); // one more reduce-scatter bucket in flight
    const auto s3 = planEngineBuffers(layout, 2, 3, Precision::Fp32, false);
    EXPECT_EQ(s3.bytes()[MemCategory::CommBuffers] - s2.bytes()[MemCategory::CommBuffers],
              (s3.embedding_slot + s3.block_slot) * 4); // the all-gather slots
    EXPECT_THROW(planEngineBuffers(layout, 3, 1, Precision::Fp32, false), std::invalid_argument);
}

} // namespace
} // namespace zerolab
