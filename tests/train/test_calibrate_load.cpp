// The load judgement of zerolab-calibrate (runtime/train/calibrate_load.h): other
// processes' CPU time and the reference pass's spread between rounds, each against its
// bound; and the tool refusing a loaded profile unless told (--allow-load).
#include "runtime/train/calibrate_load.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/train/short_calibration.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace zerolab {
namespace {

CpuSample at(double busy, double own, double wall) {
    return {busy, own, wall};
}

TEST(CalibrateLoad, AQuietMachineIsQuiet) {
    // 60 s, 2 cores: this process used 100 s of CPU, the machine 102 s (0.03 cores others).
    const LoadVerdict v = judgeLoad(at(1000, 5, 10), at(1102, 105, 70), {1.00, 1.02, 1.01});
    EXPECT_FALSE(v.loaded) << v.text;
    EXPECT_NEAR(v.other_cores, 2.0 / 60, 1e-12);
    EXPECT_NEAR(v.round_spread, 0.02 / 1.01, 1e-12);
    EXPECT_NE(v.text.find("quiet"), std::string::npos) << v.text;
}

TEST(CalibrateLoad, AnotherProcessBurningACoreIsLoad) {
    // The case: a burner on one core for the whole minute.
    const LoadVerdict v = judgeLoad(at(0, 0, 0), at(120, 60, 60), {1.0, 1.01});
    EXPECT_TRUE(v.loaded) << v.text;
    EXPECT_NEAR(v.other_cores, 1.0, 1e-12);
    EXPECT_NE(v.text.find("1.00 cores"), std::string::npos) << v.text;
    EXPECT_NE(v.text.find("the machine was busy"), std::string::npos) << v.text;
}

TEST(CalibrateLoad, RoundsThatDisagreeAreLoadEvenWhenNoOtherProcessShows) {
    // A neighbour on the host of a VM shows in no /proc/stat, only in the rounds.
    const LoadVerdict v = judgeLoad(at(0, 0, 0), at(60, 60, 60), {1.0, 1.6, 1.05});
    EXPECT_TRUE(v.loaded) << v.text;
    EXPECT_NEAR(v.round_spread, 0.6 / 1.05, 1e-12);
    EXPECT_NE(v.text.find("the rounds disagree"), std::string::npos) << v.text;
}

TEST(CalibrateLoad, AtTheBoundsIsNotYetLoad) {
    const LoadVerdict v =
        judgeLoad(at(0, 0, 0), at(10 + 10 * kMaxOtherCores, 10, 10), {1.0, 1.0 + kMaxRoundSpread});
    EXPECT_FALSE(v.loaded) << v.text;
}

TEST(CalibrateLoad, UnknownLoadIsSaidAndRefusesNothing) {
    const LoadVerdict v = judgeLoad(at(-1, 0, 0), at(-1, 5, 10), {1.0});
    EXPECT_FALSE(v.loaded);
    EXPECT_LT(v.other_cores, 0);
    EXPECT_LT(v.round_spread, 0);
    EXPECT_NE(v.text.find("unknown (no /proc/stat)"), std::string::npos) << v.text;
    EXPECT_NE(v.text.find("unknown (fewer than 2 rounds)"), std::string::npos) << v.text;
}

TEST(CalibrateLoad, TheSampleCountsThisProcessesCpu) {
    const CpuSample a = sampleCpu();
    volatile double x = 0;
    for (long i = 0; i < 50'000'000; ++i)
        x = x + 1e-9 * static_cast<double>(i);
    const CpuSample b = sampleCpu();
    EXPECT_GT(b.own_s, a.own_s);
    EXPECT_GT(b.wall_s, a.wall_s);
    ASSERT_GE(a.machine_busy_s, 0) << "this Linux has /proc/stat";
    // The machine's busy time includes ours (to the 10 ms tick).
    EXPECT_GE(b.machine_busy_s - a.machine_busy_s, (b.own_s - a.own_s) - 0.05);
}

// The tool itself under a made load: a burner on every core for the calibration's length
// makes it refuse (exit 1, the load line, no profile), and --allow-load keeps the profile.
TEST(CalibrateLoad, TheToolRefusesAProfileMeasuredUnderLoadUnlessAllowed) {
    test::TempDir dir;
    std::vector<std::string> argv = test::shortCalibration(dir.file("profile.json"));
    ASSERT_EQ(argv.back(), "--allow-load");
    argv.pop_back();
    // Burners: four `sh` loops started beside the tool by a shell that ends them, by their
    // process ids, when the tool is done.
    const std::string burn = "pids=; for i in 1 2 3 4; do sh -c 'while :; do :; done' & "
                             "pids=\"$pids $!\"; done; \"$@\"; rc=$?; kill $pids; exit $rc";
    std::vector<std::string> loaded = {"sh", "-c", burn, "sh"};
    loaded.insert(loaded.end(), argv.begin(), argv.end());
    const test::ProcessResult r = test::runProcess(loaded);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("load: other processes used"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--allow-load"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("profile.json")));
}

} // namespace
} // namespace zerolab
