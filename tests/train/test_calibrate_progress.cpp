// zerolab-calibrate --progress-json (docs/planner.md, "Progress"): on a short calibration
// every stdout line is one progress object whose fraction is its count of measurements
// done over those planned, growing from 0 to exactly 1; the human lines on stderr stay; a
// bad option still exits 2 naming it.
#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/train/short_calibration.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace zerolab {
namespace {

std::vector<nlohmann::json> lines(const std::string& out) {
    std::vector<nlohmann::json> all;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        all.push_back(nlohmann::json::parse(line)); // throws on a line that is not JSON
    return all;
}

TEST(CalibrateProgress, FractionsCountThePlannedMeasurementsFromZeroToOne) {
    test::TempDir dir("calibrate-progress");
    auto argv = test::shortCalibration(dir.file("profile.json"));
    argv.push_back("--progress-json");
    const test::ProcessResult r = test::runProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<nlohmann::json> steps = lines(r.out);
    ASSERT_GE(steps.size(), 3u) << r.out;

    const long total = steps.front().at("total").get<long>();
    EXPECT_EQ(steps.front().at("phase"), "plan");
    EXPECT_EQ(steps.front().at("done").get<long>(), 0);
    EXPECT_EQ(steps.front().at("fraction").get<double>(), 0.0);
    long done = 0;
    double fraction = 0;
    std::set<std::string> phases;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const nlohmann::json& s = steps[i];
        SCOPED_TRACE(s.dump());
        EXPECT_EQ(s.at("type"), "progress");
        EXPECT_EQ(s.at("total").get<long>(), total);
        const long d = s.at("done").get<long>();
        const double f = s.at("fraction").get<double>();
        // Each line is at least one more measurement (the plan line is none), never past
        // the plan, and its fraction is that count over the plan: it only grows.
        if (i > 0)
            EXPECT_GT(d, done);
        EXPECT_LE(d, total);
        EXPECT_DOUBLE_EQ(f, double(d) / double(total));
        EXPECT_GE(f, fraction);
        EXPECT_FALSE(s.at("measures").get<std::string>().empty());
        done = d;
        fraction = f;
        phases.insert(s.at("phase").get<std::string>());
        if (s.at("phase") == "collectives") {
            EXPECT_EQ(s.at("link"), "intra_host");
            EXPECT_EQ(s.at("ranks"), 2);
        }
    }
    // The last line is the last planned measurement: the plan counted every one made.
    EXPECT_EQ(done, total);
    EXPECT_EQ(fraction, 1.0);
    EXPECT_EQ(steps.back().at("phase"), "profile");
    EXPECT_EQ(phases, (std::set<std::string>{"plan", "kernels", "pieces", "collectives", "sharing",
                                             "profile"}));
    // The human lines are still on stderr.
    EXPECT_NE(r.err.find("zerolab-calibrate ["), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("profile written to " + dir.file("profile.json")), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir.file("profile.json")));
}

// The pieces are timed round after round, every shape and micro-batch in each round (a
// drifting machine weighs on all alike): one progress line per round and the warm-up, one
// profile entry per micro-batch; the sharing is timed within the 2-rank job.
TEST(CalibrateProgress, PiecesComeInRoundsOfEveryMicroBatch) {
    test::TempDir dir("calibrate-progress");
    auto argv = test::shortCalibration(dir.file("profile.json"));
    const auto at = [&](const char* option) {
        return std::find(argv.begin(), argv.end(), option) + 1;
    };
    *at("--rounds") = "3";
    argv.insert(at("--micro") + 1, "2");
    argv.push_back("--progress-json");
    const test::ProcessResult r = test::runProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rounds;
    int sharing = 0;
    for (const nlohmann::json& s : lines(r.out)) {
        if (s.at("phase") == "pieces")
            rounds.push_back(s.at("measures").get<std::string>());
        sharing += s.at("phase") == "sharing";
    }
    ASSERT_EQ(rounds.size(), 4u) << r.out;
    EXPECT_NE(rounds[0].find("warm-up"), std::string::npos) << rounds[0];
    EXPECT_NE(rounds[3].find("round 3 of 3"), std::string::npos) << rounds[3];
    EXPECT_EQ(sharing, 1);

    std::ifstream in(dir.file("profile.json"));
    const nlohmann::json p = nlohmann::json::parse(in);
    ASSERT_EQ(p.at("pieces").size(), 2u);
    EXPECT_EQ(p["pieces"][0].at("micro_batch"), 1);
    EXPECT_EQ(p["pieces"][1].at("micro_batch"), 2);
    ASSERT_EQ(p.at("compute_slowdown").size(), 1u);
    EXPECT_EQ(p["compute_slowdown"][0].at("ranks"), 2);
    EXPECT_GT(p["compute_slowdown"][0].at("slowdown").get<double>(), 0.0);
    EXPECT_NE(r.err.find("compute with 2 ranks at once"), std::string::npos) << r.err;
}

// The collectives are timed at the sizes the model's step calls (each unit's padded
// parameters over the job's ranks, in fp32 and bf16 bytes) besides 1 KiB x 4^i: across a
// rate-limited link a collective's time is no line in its size, and a point read between
// two sizes 4x apart was 2.2x a run's own reduce-scatter (collectiveSizes).
TEST(CalibrateProgress, CollectivesAreTimedAtTheSizesTheModelCalls) {
    test::TempDir dir("calibrate-sizes");
    auto argv = test::shortCalibration(dir.file("profile.json"));
    *(std::find(argv.begin(), argv.end(), "--max-bytes") + 1) = "4194304";
    argv.push_back("--progress-json");
    const test::ProcessResult r = test::runProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ParamLayout layout = makeParamLayout(*findModelPreset("micro"), 2);
    const double block = static_cast<double>(layout.units[1].padded_elems);
    std::ifstream in(dir.file("profile.json"));
    const nlohmann::json p = nlohmann::json::parse(in);
    ASSERT_EQ(p.at("fits").size(), 4u);
    for (const nlohmann::json& f : p["fits"]) {
        std::set<double> sizes;
        for (const nlohmann::json& q : f.at("points"))
            sizes.insert(q[0].get<double>());
        for (const double bytes : {2 * block, 4 * block, 1024.0, 1048576.0, 4194304.0})
            EXPECT_TRUE(sizes.count(bytes)) << f.at("collective") << " not timed at " << bytes;
    }
    // The progress plan counted the added sizes: its last line is the last measurement.
    const std::vector<nlohmann::json> steps = lines(r.out);
    EXPECT_EQ(steps.back().at("done"), steps.front().at("total")) << r.out;
}

// --check times the profile's reference pass again: one JSON line with both times and
// their ratio; a profile without a reference pass is refused by JSON path, exit 2.
TEST(CalibrateProgress, CheckTimesTheReferencePassAgain) {
    test::TempDir dir("calibrate-progress");
    const std::string profile = dir.file("profile.json");
    const test::ProcessResult made = test::runProcess(test::shortCalibration(profile));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    EXPECT_NE(made.err.find("reference pass (micro, micro-batch 1): "), std::string::npos)
        << made.err;
    const test::ProcessResult r = test::runProcess(
        {test::toolPath("zerolab-calibrate"), "--check", profile, "--rounds", "3"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<nlohmann::json> out = lines(r.out);
    ASSERT_EQ(out.size(), 1u) << r.out;
    const nlohmann::json& c = out.front();
    EXPECT_EQ(c.at("type"), "check");
    EXPECT_EQ(c.at("model"), "micro");
    EXPECT_EQ(c.at("micro_batch"), 1);
    std::ifstream in(profile);
    const nlohmann::json p = nlohmann::json::parse(in);
    EXPECT_EQ(c.at("calibrated_s").get<double>(),
              p.at("reference_pass").at("seconds").get<double>());
    EXPECT_GT(c.at("now_s").get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(c.at("slowdown").get<double>(),
                     c.at("now_s").get<double>() / c.at("calibrated_s").get<double>());
    EXPECT_NE(r.err.find("when calibrated"), std::string::npos) << r.err;

    nlohmann::json old = p;
    old.erase("reference_pass");
    std::ofstream(dir.file("old.json")) << old.dump();
    const test::ProcessResult refused =
        test::runProcess({test::toolPath("zerolab-calibrate"), "--check", dir.file("old.json")});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find(dir.file("old.json") + ": $.reference_pass: missing"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.out, "");
}

// An untied Llama's final norm runs inside its head's piece (llama_unit_calls.h): its
// profile says null for the two final-norm pieces, and reads back (it was written with
// 0.0 there and refused by every reader after: "$.pieces[0].seconds.final_norm_forward:
// expected a number above zero").
TEST(CalibrateProgress, AnUntiedLlamasProfileReadsBack) {
    test::TempDir dir("calibrate-progress");
    const std::string profile = dir.file("profile.json");
    auto argv = test::shortCalibration(profile);
    *(std::find(argv.begin(), argv.end(), "--model") + 1) = "llama-micro";
    const test::ProcessResult made = test::runProcess(argv);
    ASSERT_EQ(made.exit_code, 0) << made.err;
    std::ifstream in(profile);
    const nlohmann::json p = nlohmann::json::parse(in);
    ASSERT_EQ(p.at("pieces").size(), 1u);
    const nlohmann::json& seconds = p["pieces"][0].at("seconds");
    EXPECT_TRUE(seconds.at("final_norm_forward").is_null()) << seconds;
    EXPECT_TRUE(seconds.at("final_norm_backward").is_null()) << seconds;
    EXPECT_GT(seconds.at("head_forward").get<double>(), 0.0) << seconds;
    EXPECT_GT(seconds.at("block_backward").get<double>(), 0.0) << seconds;
    const test::ProcessResult r = test::runProcess(
        {test::toolPath("zerolab-calibrate"), "--check", profile, "--rounds", "1"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("reference pass (llama-micro, micro-batch 1)"), std::string::npos)
        << r.err;
}

TEST(CalibrateProgress, WithoutTheFlagStdoutStaysEmpty) {
    test::TempDir dir("calibrate-progress");
    const test::ProcessResult r =
        test::runProcess(test::shortCalibration(dir.file("profile.json")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("profile written to"), std::string::npos) << r.err;
}

TEST(CalibrateProgress, ABadOptionStillExitsTwoNamingIt) {
    test::TempDir dir("calibrate-progress");
    auto argv = test::shortCalibration(dir.file("profile.json"));
    argv.insert(argv.end(), {"--progress-json", "--bogus"});
    test::ProcessResult r = test::runProcess(argv);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;

    argv = test::shortCalibration(dir.file("profile.json"));
    *(std::find(argv.begin(), argv.end(), "--rounds") + 1) = "0";
    argv.push_back("--progress-json");
    r = test::runProcess(argv);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--rounds"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");

    argv = test::shortCalibration(dir.file("profile.json"));
    argv.insert(argv.end(), {"--progress-json", "--ranks", "1"});
    r = test::runProcess(argv);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--ranks"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, ""); // refused before any measurement
    EXPECT_FALSE(std::filesystem::exists(dir.file("profile.json")));
}

} // namespace
} // namespace zerolab
