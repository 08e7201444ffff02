// The machine profile's JSON (machine_profile.h): a profile survives a round trip, and a
// bad or partial one is refused naming the file and the JSON path of what is wrong.
#include "tests/support/temp_dir.h"

#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace zerolab {
namespace {

MachineProfile sample() {
    MachineProfile p;
    p.source = "calibrated";
    p.name = "box";
    p.date = "2026-12-01T12:00:00Z";
    p.cores = 2;
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        p.rates[i] = 1e9 + static_cast<double>(i);
    p.matmuls.push_back({64, 64, 192, 2e9, 1.5e9});
    p.fits.push_back({Collective::ReduceScatter, LinkClass::InterHost, 2, 1e-4, 1e8, 0.03});
    p.compute_slowdown = {{2, 1.1}, {4, 2.3}};
    p.hosts_share_cores = true;
    return p;
}

std::string errorOf(const nlohmann::json& j) {
    try {
        machineProfileFromJson(j, "p.json");
    } catch (const PlanError& e) {
        return e.what();
    }
    return "";
}

TEST(MachineProfile, RoundTrips) {
    const MachineProfile p = sample();
    const MachineProfile q = machineProfileFromJson(toJson(p), "p.json");
    EXPECT_EQ(toJson(q), toJson(p));
    EXPECT_EQ(opRate(q, OpKind::MatmulForward, 64, 64, 192), 2e9);
    EXPECT_EQ(opRate(q, OpKind::MatmulForward, 64, 64, 64), p.rates[0]); // another shape
    EXPECT_NEAR(collectiveSeconds(q, Collective::ReduceScatter, LinkClass::InterHost, 2, 1e6),
                1e-4 + 1e-2, 1e-15);
}

TEST(MachineProfile, FitRecoversLatencyAndBandwidth) {
    std::vector<std::pair<double, double>> points;
    for (double b = 1024; b <= 64 << 20; b *= 4)
        points.push_back({b, 20e-6 + b / 2e9});
    const CollectiveFit f = fitLatencyBandwidth(points);
    EXPECT_NEAR(f.latency_s, 20e-6, 1e-12);
    EXPECT_NEAR(f.bytes_per_s, 2e9, 1e-3);
    EXPECT_LT(f.worst_residual, 1e-9);
    points[0].second *= 2; // one slow small call
    EXPECT_NEAR(fitLatencyBandwidth(points).worst_residual, 0.5, 0.1);
    EXPECT_THROW(fitLatencyBandwidth({{1024, 1e-5}}), PlanError);
}

TEST(MachineProfile, BadValuesAreNamedByJsonPath) {
    nlohmann::json j = toJson(sample());
    j["fits"][0]["bytes_per_s"] = -1;
    EXPECT_EQ(errorOf(j), "p.json: $.fits[0].bytes_per_s: expected a number above zero, got -1");
    j = toJson(sample());
    j["fits"][0]["collective"] = "allsort";
    EXPECT_NE(errorOf(j).find("p.json: $.fits[0].collective: unknown collective"),
              std::string::npos);
    j = toJson(sample());
    j["matmuls"][0].erase("k");
    EXPECT_EQ(errorOf(j), "p.json: $.matmuls[0].k: missing (a partial profile: calibrate again)");
    j = toJson(sample());
    j["rates"].erase("adamw");
    EXPECT_EQ(errorOf(j), "p.json: $.rates.adamw: missing (a partial profile: calibrate again)");
    j = toJson(sample());
    j["rates"]["teleport"] = 1;
    EXPECT_EQ(errorOf(j), "p.json: $.rates.teleport: not a kernel the model counts");
    j = toJson(sample());
    j["version"] = 7;
    EXPECT_NE(errorOf(j).find("p.json: $.version: version 7 is not known"), std::string::npos);
    j = toJson(sample());
    j["format"] = "something";
    EXPECT_NE(errorOf(j).find("p.json: $.format: expected \"zerolab-machine-profile\""),
              std::string::npos);
    j = toJson(sample());
    j["fits"] = nlohmann::json::array();
    EXPECT_NE(errorOf(j).find("p.json: $.fits: empty"), std::string::npos);
    j = toJson(sample());
    j["compute_slowdown"][1]["slowdown"] = "fast";
    EXPECT_EQ(errorOf(j),
              "p.json: $.compute_slowdown[1].slowdown: expected a number above zero, got \"fast\"");
    EXPECT_EQ(errorOf(nlohmann::json::array()), "p.json: $: expected an object");
}

TEST(MachineProfile, FilesThatAreNotProfilesAreRefusedNamingThem) {
    const test::TempDir temp("profile");
    const std::string path = temp.file("profile.json");
    std::ofstream(path) << "{\"format\": ";
    try {
        loadMachineProfile(path);
        ADD_FAILURE() << "accepted a truncated file";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": not JSON"), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
    EXPECT_THROW(loadMachineProfile(path), PlanError);
}

TEST(MachineProfile, AMissingFitNamesWhatTheProfileHas) {
    try {
        collectiveSeconds(sample(), Collective::ReduceScatter, LinkClass::InterHost, 4, 1);
        ADD_FAILURE();
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("over 4 ranks on inter_host (it has 2 ranks)"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace zerolab
