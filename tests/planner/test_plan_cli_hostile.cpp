// zerolab-plan on the numbers and texts of issue 40's probe: a psi past 2^48, a capacity
// past any machine, a profile whose values no machine has, a profile whose name and date
// carry terminal escapes, an accumulation count of a million. Each exits 2 naming the flag
// or the JSON path, or prints a forecast in finite numbers and no escape.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/planner/machine_profile.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

using zerolab::test::ProcessResult;

ProcessResult plan(const std::string& args) {
    return zerolab::test::runTool("zerolab-plan", args);
}

zerolab::MachineProfile cpuBox() {
    zerolab::MachineProfile p;
    p.source = "calibrated";
    p.name = "cpu-box";
    p.date = "2026-12-01T10:00:00Z";
    p.cores = 2;
    p.rates.fill(1e10);
    p.intra_link = zerolab::LinkSpec{"shm", "shared memory", 5e9, 2e-6};
    return p;
}

bool hasNonFinite(const std::string& text) {
    for (const char* word : {"inf", "nan", "-9223372036854775808"})
        if (text.find(word) != std::string::npos)
            return true;
    return false;
}

// psi past 2^48 (a shape's bound) overflowed int64: "psi = -9223372036854775808" and
// negative GB, exit 0; 1e18 printed "psi = 1e+09e9".
TEST(PlanCliHostile, PsiPastTwoToTheFortyEightExitsTwoNamingTheFlag) {
    for (const char* psi : {"1e30", "9.3e18", "1e19", "1e18", "300T"}) {
        const ProcessResult r = plan(std::string("--params ") + psi + " --world 8");
        EXPECT_EQ(r.exit_code, 2) << psi << ": " << r.out.substr(0, 300);
        EXPECT_NE(r.err.find("--params: at most 2^48 = 281474976710656 parameters"),
                  std::string::npos)
            << psi << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << psi;
    }
    // 2^48 itself is planned, psi written without an exponent of its own.
    const ProcessResult r = plan("--params 281474976710656 --world 8");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("e+"), std::string::npos) << r.out;
    EXPECT_FALSE(hasNonFinite(r.out)) << r.out;
}

// --capacity-gb 1e308 was refused with "-9223372036854775808 bytes".
TEST(PlanCliHostile, GigabytesPastAnyMachineExitTwoNamingTheFlag) {
    for (const char* flag : {"--capacity-gb", "--reserve-gb", "--activations-gb"}) {
        for (const char* gb : {"1e308", "5e9", "-1"}) {
            const ProcessResult r = plan(std::string("--params 1e9 --world 8 ") + flag + " " + gb);
            EXPECT_EQ(r.exit_code, 2) << flag << " " << gb;
            EXPECT_NE(r.err.find(std::string(flag) + ": expected a number of GB"),
                      std::string::npos)
                << flag << " " << gb << ": " << r.err;
            EXPECT_EQ(r.err.find("-9223372036854775808"), std::string::npos) << r.err;
        }
    }
}

// A profile with positive but absurd values printed "inf s" and "-nan us" and exit 0.
TEST(PlanCliHostile, AbsurdProfilesExitTwoNamingThePathAndTheBound) {
    const zerolab::test::TempDir dir("plan-hostile");
    const std::string file = dir.file("absurd.json");
    nlohmann::json j = zerolab::toJson(cpuBox());
    j["rates"]["matmul_forward"] = 1e-300;
    std::ofstream(file) << j.dump();
    for (const char* json : {"", " --json"}) {
        const ProcessResult r = plan("--params 7.5e9 --world 8 --time --profile " + file + json);
        EXPECT_EQ(r.exit_code, 2) << r.out.substr(0, 300);
        EXPECT_NE(r.err.find(file + ": $.rates.matmul_forward: beyond what a machine does"),
                  std::string::npos)
            << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 300);
    }
    // A preset made absurd on the command line: refused, never forecast as inf.
    const ProcessResult r =
        plan("--params 7.5e9 --world 8 --time --device h100-80 --matmul-fraction 1e-320");
    EXPECT_EQ(r.exit_code, 2) << r.out.substr(0, 300);
    EXPECT_NE(r.err.find("not a finite number"), std::string::npos) << r.err;
    EXPECT_FALSE(hasNonFinite(r.out)) << r.out;
}

// A profile's name and date carrying ESC sequences reached the terminal raw (ESC[2J
// cleared the screen).
TEST(PlanCliHostile, TerminalEscapesFromAProfileAreShownNotRun) {
    const zerolab::test::TempDir dir("plan-hostile");
    const std::string file = dir.file("escapes.json");
    zerolab::MachineProfile p = cpuBox();
    p.name = "box\x1b[2J\x1b]0;owned\x07";
    p.date = "2026\r\x1b[31m";
    p.intra_link->label = "link\x1b[1A";
    std::ofstream(file) << zerolab::toJson(p).dump();
    for (const char* json : {"", " --json"}) {
        const ProcessResult r = plan("--params 124M --world 2 --time --profile " + file + json);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
        if (*json == '\0')
            EXPECT_NE(r.out.find("box\uFFFD[2J\uFFFD]0;owned\uFFFD"), std::string::npos) << r.out;
    }
    // An error that quotes the file (an unknown kernel's name) is escaped too.
    nlohmann::json j = zerolab::toJson(cpuBox());
    j["rates"]["\x1b[2Jteleport"] = 1e9;
    std::ofstream(file) << j.dump();
    const ProcessResult r = plan("--params 124M --world 2 --time --profile " + file);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\uFFFD[2Jteleport"), std::string::npos) << r.err;
}

// An accumulation count of a million took 9 GB at 60 s: the step-time model now replays
// the steady micro-step once (step_time.h), whatever the count. Run in 1 GiB of address
// space and 60 s, so that a model that grows with the count fails here rather than
// loading the machine.
TEST(PlanCliHostile, AMillionMicroStepsAreForecastAtOnce) {
    const ProcessResult r = zerolab::test::runProcess(
        {"prlimit", "--as=1073741824", "--", "timeout", "60",
         zerolab::test::toolPath("zerolab-plan"), "--params", "7.5e9", "--world", "8",
         "--grad-accum", "1000000", "--time", "--device", "h100-80", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto& s : doc["time"]["stages"])
        EXPECT_GT(s["step_s"].get<double>(), 0);
    bool said = false;
    for (const auto& a : doc["time"]["assumptions"])
        said = said || a.get<std::string>().find("micro-steps repeat") != std::string::npos;
    EXPECT_TRUE(said) << doc["time"]["assumptions"].dump();
}

} // namespace
