// The schedule the engine and the step-time model share (step_schedule.h): the gradient
// buckets of stages 0-1 in backward's order, and ZeRO-3's gather-slot decisions.
#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/step_schedule.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

ParamLayout nanoLayout() {
    return makeParamLayout(*findModelPreset("nano"), 2); // units 0-3, 3 the final layernorm
}

TEST(StepSchedule, BucketsCloseAtTheirSizeInBackwardOrder) {
    const ParamLayout l = nanoLayout();
    EXPECT_EQ(reduceBuckets(l, 0, true, 1'000'000'000), (std::vector<ReduceBucket>{{0, 3}}));
    EXPECT_EQ(reduceBuckets(l, 0, true, l.units[2].padded_elems),
              (std::vector<ReduceBucket>{{2, 3}, {1, 1}, {0, 0}}));
    EXPECT_EQ(reduceBuckets(l, 1, true, 1'000'000'000),
              (std::vector<ReduceBucket>{{3, 3}, {2, 2}, {1, 1}, {0, 0}}));
    EXPECT_EQ(reduceBuckets(l, 1, false, 1'000'000'000), (std::vector<ReduceBucket>{{0, 3}}));
}

TEST(StepSchedule, OneSlotGathersEachUnitAndKeepsItUntilNeeded) {
    GatherSlots s(4, 1);
    using A = GatherSlots::Action;
    using K = GatherSlots::ActionKind;
    GatherSlots::Acquire a = s.acquire(0);
    EXPECT_EQ(a.before, (std::vector<A>{{K::Gather, 0, 0}, {K::Wait, 0}}));
    s.release(0);
    a = s.acquire(1);
    EXPECT_EQ(a.slot, 1);
    EXPECT_EQ(a.before, (std::vector<A>{{K::Gather, 1, 1}, {K::Wait, 1}}));
    EXPECT_TRUE(a.after.empty());
    s.release(1);
    EXPECT_TRUE(s.acquire(1).before.empty());     // still there
    EXPECT_THROW(s.acquire(2), std::logic_error); // unit 1 holds the only block slot
}

TEST(StepSchedule, TwoSlotsPrefetchUpwardThenDownward) {
    GatherSlots s(4, 2);
    using A = GatherSlots::Action;
    using K = GatherSlots::ActionKind;
    s.release(s.acquire(0).slot);
    GatherSlots::Acquire a = s.acquire(1);
    EXPECT_EQ(a.slot, 2);
    EXPECT_EQ(a.after, (std::vector<A>{{K::Gather, 1, 2}}));
    s.release(1);
    a = s.acquire(2);
    EXPECT_EQ(a.before, (std::vector<A>{{K::Wait, 1}})); // the prefetch, waited for
    EXPECT_EQ(a.after, (std::vector<A>{{K::Gather, 2, 3}}));
    s.release(2);
    s.setBackward(true);
    a = s.acquire(3);
    EXPECT_EQ(a.before, (std::vector<A>{{K::Wait, 2}}));
    EXPECT_TRUE(a.after.empty()); // unit 2, next downward, is in slot 1 already
    s.invalidate();
    EXPECT_EQ(s.unitIn(1), -1);
}

} // namespace
} // namespace zerolab
