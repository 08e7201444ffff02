// A calibrated profile's tables keyed by rank count read at a rank count between two
// calibrated ones (rank_interpolation.h): compute_slowdown, comm_beside_compute and
// compute_beside_comm as time factors linear in the ranks, the forecast's assumptions
// naming every table interpolated; outside the calibrated range nothing is interpolated.
// (The collectives' fits: MachineProfile.*Interpolat* in test_machine_profile.cpp.)
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/step_time.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace zerolab {
namespace {

TrainConfig nano(int stage, int world) {
    TrainConfig c;
    c.model.preset = "nano";
    c.model.shape = *findModelPreset("nano");
    c.model.seq_len = 64;
    c.batch.world = world;
    c.batch.micro_batch = 1;
    c.batch.grad_accum = 1;
    c.batch.train_batch_size = world;
    c.zero.stage = stage;
    c.zero.overlap_comm = true;
    return c;
}

// Calibrated at 2 and 4 ranks within the host, as zerolab-calibrate does by default.
MachineProfile calibratedAtTwoAndFour() {
    MachineProfile p;
    p.source = "calibrated";
    p.name = "made-up";
    p.cores = 2;
    p.rates.fill(1e12);
    p.rates[static_cast<std::size_t>(OpKind::MatmulForward)] = 1e9;
    p.rates[static_cast<std::size_t>(OpKind::MatmulBackward)] = 1e9;
    for (std::size_t k = 0; k < kCollectiveCount; ++k)
        for (const int n : {2, 4})
            p.fits.push_back(
                {static_cast<Collective>(k), LinkClass::IntraHost, n, n * 1e-5, 1e9 / n, 0.01, {}});
    p.compute_slowdown = {{2, 1.2}, {4, 2.0}};
    p.comm_beside_compute = {{LinkClass::IntraHost, 2, 0.5}, {LinkClass::IntraHost, 4, 0.25}};
    p.compute_beside_comm = {{LinkClass::IntraHost, 4, 0.5}, {LinkClass::IntraHost, 2, 0.8}};
    return p;
}

bool says(const StepTimeForecast& f, const std::string& text) {
    return std::any_of(f.assumptions.begin(), f.assumptions.end(),
                       [&](const std::string& a) { return a.find(text) != std::string::npos; });
}

// Each table at 3 ranks: the line through 2 and 4 of the time factor (1 / rate for the
// beside-rates): slowdown 1.2 and 2.0 give 1.6; collectives at 1/2 and 1/4 of their rate
// take 2 and 4 times as long, so 3 times at 3 ranks; compute at 0.8 and 0.5 takes 1.25 and 2
// times, 1.625 at 3 (a rate of 1 / 1.625).
TEST(RankInterpolation, SlowdownTablesAreTimeFactorsLinearInTheRanks) {
    const MachineProfile p = calibratedAtTwoAndFour();
    double scale = 0;
    const StepCosts k3 = stepCosts(nano(3, 3), p, {}, &scale);
    EXPECT_DOUBLE_EQ(scale, 1.6);
    EXPECT_DOUBLE_EQ(k3.comm_rate_beside_compute, 1.0 / 3);
    EXPECT_DOUBLE_EQ(k3.model_beside_comm_rate, 1 / 1.625);
    EXPECT_EQ(k3.beside_comm_source, "measured");
    for (std::size_t i = 0; i < k3.model.size(); ++i)
        EXPECT_NEAR(k3.model_beside_comm[i], 1.625 * k3.model[i], 1e-15) << i;
    // Between its neighbours, and the neighbours themselves as calibrated.
    const StepCosts k2 = stepCosts(nano(3, 2), p, {}, &scale);
    EXPECT_DOUBLE_EQ(scale, 1.2);
    EXPECT_DOUBLE_EQ(k2.comm_rate_beside_compute, 0.5);
    EXPECT_DOUBLE_EQ(k2.model_beside_comm_rate, 0.8);
    const StepCosts k4 = stepCosts(nano(3, 4), p, {}, &scale);
    EXPECT_DOUBLE_EQ(scale, 2.0);
    EXPECT_DOUBLE_EQ(k4.comm_rate_beside_compute, 0.25);
    EXPECT_DOUBLE_EQ(k4.model_beside_comm_rate, 0.5);
}

// The forecast says what it interpolated, and at the calibrated counts says nothing of it.
TEST(RankInterpolation, TheForecastSaysWhatItInterpolated) {
    const MachineProfile p = calibratedAtTwoAndFour();
    const StepTimeForecast f = predictStepTime(nano(3, 3), p);
    EXPECT_TRUE(says(f, "collective fits over 3 ranks on intra_host (allreduce, reduce_scatter "
                        "and allgather) interpolated between the calibrated 2 and 4"))
        << ::testing::PrintToString(f.assumptions);
    EXPECT_TRUE(says(f, "compute slowdown of 3 ranks computing at once interpolated between "
                        "the calibrated 2 and 4: 1.60x"))
        << ::testing::PrintToString(f.assumptions);
    EXPECT_TRUE(says(f, "comm_beside_compute over 3 ranks on intra_host interpolated between "
                        "the calibrated 2 and 4 as a time factor: 33% of the rate alone"))
        << ::testing::PrintToString(f.assumptions);
    EXPECT_TRUE(says(f, "compute_beside_comm over 3 ranks on intra_host interpolated between "
                        "the calibrated 2 and 4 as a time factor: 62% of the rate alone"))
        << ::testing::PrintToString(f.assumptions);
    // Without allgather_partitions the broadcast's fit is read too.
    TrainConfig broadcast = nano(1, 3);
    broadcast.zero.allgather_partitions = false;
    EXPECT_TRUE(says(predictStepTime(broadcast, p),
                     "(allreduce, reduce_scatter, allgather and broadcast) interpolated"));
    for (const int n : {2, 4})
        EXPECT_FALSE(says(predictStepTime(nano(3, n), p), "interpolated")) << n;
    // Between the calibrated 2 and 4 in time, too.
    const double t2 = predictStepTime(nano(3, 2), p).comm_in_flight_s;
    const double t4 = predictStepTime(nano(3, 4), p).comm_in_flight_s;
    EXPECT_GT(f.comm_in_flight_s, std::min(t2, t4));
    EXPECT_LT(f.comm_in_flight_s, std::max(t2, t4));
}

// Beyond the calibrated counts the slowdown tables are not extrapolated: the sharing model
// takes compute_slowdown's place, rate 1 the beside-rates'; the collectives are refused.
TEST(RankInterpolation, NothingIsExtrapolated) {
    MachineProfile p = calibratedAtTwoAndFour();
    p.oversubscription_factor = 1.5;
    p.fits.clear();
    p.intra_link = LinkSpec{"x", "x", 1e8, 1e-6};
    double scale = 0;
    const StepCosts k = stepCosts(nano(3, 5), p, {}, &scale);
    EXPECT_DOUBLE_EQ(scale, 5.0 / 2 * 1.5);
    EXPECT_EQ(k.comm_rate_beside_compute, 1);
    EXPECT_EQ(k.beside_comm_source, "none");
    const StepTimeForecast f = predictStepTime(nano(3, 5), p);
    EXPECT_FALSE(says(f, "interpolated")) << ::testing::PrintToString(f.assumptions);
    try {
        predictStepTime(nano(3, 5), calibratedAtTwoAndFour());
        ADD_FAILURE() << "5 ranks were forecast from fits at 2 and 4";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("over 5 ranks on intra_host (it has 2, 4 ranks); "
                                             "calibrate at that rank count"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace zerolab
