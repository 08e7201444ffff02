// The step-time model at any accumulation count (step_time.h, simulateStep): the steady
// micro-step replayed once and multiplied gives what replaying every micro-step gives, at
// every stage, precision and overlap_comm; and its cost (calls into the costs, spans,
// collectives) stays the same from a handful of micro-steps to a million.
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/step_time.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace zerolab {
namespace {

TrainConfig nano(int stage, bool bf16, bool overlap, int accumulation) {
    TrainConfig c;
    c.model.preset = "nano";
    c.model.shape = *findModelPreset("nano");
    c.model.seq_len = 64;
    c.precision = bf16 ? Precision::Bf16Mixed : Precision::Fp32;
    c.batch.world = 2;
    c.batch.micro_batch = 1;
    c.batch.grad_accum = accumulation;
    c.batch.train_batch_size = 2 * accumulation;
    c.zero.stage = stage;
    c.zero.overlap_comm = overlap;
    return c;
}

// Made-up costs in which every kind of work takes time (the engine's own kernels too), and
// collectives are slow enough beside compute to overlap it and be waited for. `calls`
// counts what the replay asks of them.
StepCosts costs(long long* calls) {
    StepCosts s;
    for (std::size_t i = 1; i < s.model.size(); ++i)
        s.model[i] = 1e-3 * (1 + 0.1 * static_cast<double>(i));
    s.engine_op = [calls](OpKind k, double elements) {
        ++*calls;
        return elements * 1e-9 * (1 + 0.01 * static_cast<int>(k));
    };
    s.collective = [calls](Collective, double bytes) {
        ++*calls;
        return 2e-4 + bytes * 3e-9;
    };
    s.comm_rate_beside_compute = 0.6;
    return s;
}

void expectClose(double repeated, double replayed, const std::string& what) {
    EXPECT_NEAR(repeated, replayed, 1e-12 * std::max(1.0, std::abs(replayed))) << what;
}

void expectSameForecast(const StepTimeForecast& a, const StepTimeForecast& b,
                        const std::string& where) {
    expectClose(a.step_s, b.step_s, where + " step_s");
    expectClose(a.forward_s, b.forward_s, where + " forward_s");
    expectClose(a.backward_s, b.backward_s, where + " backward_s");
    expectClose(a.recompute_s, b.recompute_s, where + " recompute_s");
    expectClose(a.optimizer_s, b.optimizer_s, where + " optimizer_s");
    expectClose(a.engine_s, b.engine_s, where + " engine_s");
    expectClose(a.compute_s, b.compute_s, where + " compute_s");
    expectClose(a.comm_in_flight_s, b.comm_in_flight_s, where + " comm_in_flight_s");
    expectClose(a.comm_exposed_s, b.comm_exposed_s, where + " comm_exposed_s");
    for (std::size_t k = 0; k < kCollectiveCount; ++k) {
        expectClose(a.in_flight_s[k], b.in_flight_s[k],
                    where + " in_flight_s " + std::to_string(k));
        expectClose(a.exposed_s[k], b.exposed_s[k], where + " exposed_s " + std::to_string(k));
    }
    ASSERT_EQ(a.collectives.size(), b.collectives.size()) << where;
    for (std::size_t i = 0; i < a.collectives.size(); ++i) {
        const CollectiveForecast &x = a.collectives[i], &y = b.collectives[i];
        const std::string at = where + " collective " + std::to_string(i);
        EXPECT_EQ(x.collective, y.collective) << at;
        EXPECT_EQ(x.unit, y.unit) << at;
        EXPECT_EQ(x.micro, y.micro) << at;
        EXPECT_EQ(x.bytes, y.bytes) << at;
        expectClose(x.issue_s, y.issue_s, at + " issue_s");
        expectClose(x.start_s, y.start_s, at + " start_s");
        expectClose(x.end_s, y.end_s, at + " end_s");
        expectClose(x.exposed_s, y.exposed_s, at + " exposed_s");
    }
    ASSERT_EQ(a.timeline.spans.size(), b.timeline.spans.size()) << where;
    for (std::size_t i = 0; i < a.timeline.spans.size(); ++i) {
        const TimelineSpan &x = a.timeline.spans[i], &y = b.timeline.spans[i];
        const std::string at = where + " span " + std::to_string(i);
        EXPECT_EQ(x.kind, y.kind) << at;
        EXPECT_EQ(x.unit, y.unit) << at;
        EXPECT_EQ(x.micro, y.micro) << at;
        EXPECT_EQ(x.seq, y.seq) << at;
        expectClose(x.start_us, y.start_us, at + " start_us");
        expectClose(x.end_us, y.end_us, at + " end_us");
    }
    EXPECT_EQ(a.undrawn_micro_steps, 0) << where;
}

// The configurations whose schedules differ: every stage, fp32 and bf16 (casts, the
// parameter and gradient slots), with and without overlap_comm (stage 3: one gather slot
// or two with prefetch).
template <typename F> void forEachSchedule(F&& f) {
    for (int stage = 0; stage <= 3; ++stage)
        for (bool bf16 : {false, true})
            for (bool overlap : {false, true})
                f(stage, bf16, overlap,
                  "stage " + std::to_string(stage) + (bf16 ? " bf16" : " fp32") +
                      (overlap ? " overlap" : ""));
}

TEST(StepTimeRepeat, RepeatingTheSteadyMicroStepIsReplayingEach) {
    forEachSchedule([](int stage, bool bf16, bool overlap, const std::string& name) {
        for (int a = 1; a <= 6; ++a) {
            long long calls = 0;
            const TrainConfig c = nano(stage, bf16, overlap, a);
            const StepTimeForecast replayed = simulateStep(c, costs(&calls), true);
            const StepTimeForecast repeated = simulateStep(c, costs(&calls));
            expectSameForecast(repeated, replayed, name + " accumulation " + std::to_string(a));
        }
    });
}

TEST(StepTimeRepeat, ItsCostDoesNotGrowWithTheAccumulationCount) {
    forEachSchedule([](int stage, bool bf16, bool overlap, const std::string& name) {
        long long calls = 0;
        const StepTimeForecast few = simulateStep(nano(stage, bf16, overlap, 6), costs(&calls));
        const long long callsAtFew = calls;
        // The first micro-step, at stage 3 the second (its slots hold what backward left),
        // then the steady one, and the last.
        EXPECT_LE(few.replayed_micro_steps, 4) << name;
        // At 1000 first: a replay of every micro-step fails here, before it tries a million.
        const StepTimeForecast some = simulateStep(nano(stage, bf16, overlap, 1000), costs(&calls));
        ASSERT_EQ(some.replayed_micro_steps, few.replayed_micro_steps) << name;
        const StepTimeForecast million =
            simulateStep(nano(stage, bf16, overlap, 1000000), costs(&calls));
        EXPECT_EQ(million.replayed_micro_steps, few.replayed_micro_steps) << name;
        EXPECT_EQ(calls, 3 * callsAtFew) << name; // as many calls into the costs each time
        // Drawn: kDrawnMicroSteps micro-steps, the rest counted.
        EXPECT_EQ(million.undrawn_micro_steps, 1000000 - kDrawnMicroSteps) << name;
        EXPECT_EQ(million.timeline.spans.size(), some.timeline.spans.size()) << name;
        EXPECT_EQ(million.collectives.size(), some.collectives.size()) << name;
        // Each micro-step past the first ones adds the same time.
        const double perMicro = (some.step_s - few.step_s) / 994;
        EXPECT_NEAR(million.step_s, some.step_s + 999000 * perMicro, 1e-9 * million.step_s) << name;
        EXPECT_NEAR(million.forward_s, 1e6 * few.forward_s / 6, 1e-9 * million.forward_s) << name;
    });
}

// Past kDrawnMicroSteps the collectives keep their issue numbers: the last micro-step's
// are numbered after every undrawn one, as the trainer numbers them.
TEST(StepTimeRepeat, UndrawnMicroStepsKeepTheIssueNumbers) {
    long long calls = 0;
    const int a = 100;
    const StepTimeForecast repeated = simulateStep(nano(2, false, true, a), costs(&calls));
    const StepTimeForecast replayed = simulateStep(nano(2, false, true, a), costs(&calls), true);
    EXPECT_EQ(repeated.undrawn_micro_steps, a - kDrawnMicroSteps);
    int lastSeq = -1, lastSeqReplayed = -1;
    for (const TimelineSpan& s : repeated.timeline.spans)
        if (s.kind == SpanKind::Collective)
            lastSeq = std::max(lastSeq, s.seq);
    for (const TimelineSpan& s : replayed.timeline.spans)
        if (s.kind == SpanKind::Collective)
            lastSeqReplayed = std::max(lastSeqReplayed, s.seq);
    EXPECT_EQ(lastSeq, lastSeqReplayed);
    EXPECT_EQ(lastSeq + 1, static_cast<int>(replayed.collectives.size()));
    expectClose(repeated.step_s, replayed.step_s, "step_s");
    expectClose(repeated.comm_exposed_s, replayed.comm_exposed_s, "comm_exposed_s");
    expectClose(repeated.comm_in_flight_s, replayed.comm_in_flight_s, "comm_in_flight_s");
}

// The memory plan's stage-3 gathers (engine_buffers.h, stage3Gathers) repeat the steady
// micro-step the same way: per unit, as many all-gathers as simulateStep's replay of every
// micro-step issues, and a million micro-steps replayed as few as six.
TEST(StepTimeRepeat, StageThreeGatherCountsRepeatTheSteadyMicroStep) {
    for (bool overlap : {false, true}) { // one gather slot, two (prefetch)
        const ParamLayout layout = makeParamLayout(*findModelPreset("nano"), 2);
        const int slots = std::max(
            1, planEngineBuffers(layout, 2, 3, Precision::Fp32, overlap).gather_block_slots);
        for (int a = 1; a <= 6; ++a) {
            const Stage3Gathers g = stage3Gathers(layout, slots, a);
            long long calls = 0;
            const StepTimeForecast f =
                simulateStep(nano(3, false, overlap, a), costs(&calls), true);
            std::vector<int> gathered(layout.units.size(), 0);
            for (const CollectiveForecast& x : f.collectives)
                if (x.collective == Collective::AllGather)
                    ++gathered[static_cast<std::size_t>(x.unit)];
            for (std::size_t u = 0; u < gathered.size(); ++u)
                EXPECT_EQ(g.forward[u] + g.backward[u], gathered[u])
                    << "unit " << u << " accumulation " << a << (overlap ? " two slots" : "");
        }
        const Stage3Gathers five = stage3Gathers(layout, slots, 5);
        const Stage3Gathers six = stage3Gathers(layout, slots, 6);
        const Stage3Gathers million = stage3Gathers(layout, slots, 1000000);
        EXPECT_LE(six.replayed_micro_steps, 3);
        EXPECT_EQ(million.replayed_micro_steps, six.replayed_micro_steps);
        for (std::size_t u = 0; u < layout.units.size(); ++u) {
            EXPECT_EQ(million.forward[u],
                      six.forward[u] + 999994 * (six.forward[u] - five.forward[u]));
            EXPECT_EQ(million.backward[u],
                      six.backward[u] + 999994 * (six.backward[u] - five.backward[u]));
        }
    }
}

} // namespace
} // namespace zerolab
