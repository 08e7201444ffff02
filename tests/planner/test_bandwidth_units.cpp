// Bandwidth units (bandwidth_units.h): bits and bytes per second spelled out, a bare
// number refused naming the option and the two readings, and zerolab-plan's options:
// --bandwidth with its unit, --bandwidth-gbps printing back that it means GB/s.
#include "tests/support/process.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/planner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <string>

namespace zerolab {
namespace {

std::string errorOf(const std::string& text) {
    try {
        parseBandwidth(text, "--bandwidth");
    } catch (const PlanError& e) {
        return e.what();
    }
    return "";
}

TEST(BandwidthUnits, BitsAndBytesPerSecond) {
    EXPECT_DOUBLE_EQ(parseBandwidth("200Gb/s", "x"), 25e9);
    EXPECT_DOUBLE_EQ(parseBandwidth("200 Gbit/s", "x"), 25e9);
    EXPECT_DOUBLE_EQ(parseBandwidth("200Gbps", "x"), 25e9);
    EXPECT_DOUBLE_EQ(parseBandwidth("1gbit", "x"), 125e6);
    EXPECT_DOUBLE_EQ(parseBandwidth("200mbit", "x"), 25e6);
    EXPECT_DOUBLE_EQ(parseBandwidth("200 Mbit/s", "x"), 25e6);
    EXPECT_DOUBLE_EQ(parseBandwidth("25GB/s", "x"), 25e9);
    EXPECT_DOUBLE_EQ(parseBandwidth("900 GB/s", "x"), 900e9);
    EXPECT_DOUBLE_EQ(parseBandwidth("1.5TB/s", "x"), 1.5e12);
    EXPECT_DOUBLE_EQ(parseBandwidth("100MB/s", "x"), 100e6);
}

TEST(BandwidthUnits, ABareNumberIsRefusedWithBothReadings) {
    const std::string e = errorOf("200");
    EXPECT_NE(e.find("--bandwidth '200'"), std::string::npos) << e;
    EXPECT_NE(e.find("200Gb/s (bits per second)"), std::string::npos) << e;
    EXPECT_NE(e.find("200GB/s (bytes per second)"), std::string::npos) << e;
}

TEST(BandwidthUnits, UnknownUnitsNothingAndZeroAreRefused) {
    EXPECT_NE(errorOf("200 furlongs").find("unknown unit 'furlongs'"), std::string::npos);
    EXPECT_NE(errorOf("fast").find("expected a number and a unit"), std::string::npos);
    EXPECT_NE(errorOf("0Gb/s").find("above zero"), std::string::npos);
    EXPECT_NE(errorOf("-3GB/s").find("above zero"), std::string::npos);
}

TEST(BandwidthUnits, PrintsBytesAndBits) {
    EXPECT_EQ(formatBandwidth(25e9), "25 GB/s (200 Gb/s)");
    EXPECT_EQ(formatBandwidth(125e6), "125 MB/s (1 Gb/s)");
}

TEST(BandwidthUnits, PlanCliReadsTheUnitAndPrintsBackGbps) {
    const test::ProcessResult bits =
        test::runTool("zerolab-plan", "--params 1e9 --world 8 --bandwidth 200Gb/s --json");
    ASSERT_EQ(bits.exit_code, 0) << bits.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(bits.out)["input"]["bandwidth_gbps"].get<double>(), 25);
    const test::ProcessResult bare =
        test::runTool("zerolab-plan", "--params 1e9 --world 8 --bandwidth 200");
    EXPECT_EQ(bare.exit_code, 2);
    EXPECT_NE(bare.err.find("a bare number"), std::string::npos) << bare.err;
    const test::ProcessResult gbps =
        test::runTool("zerolab-plan", "--params 1e9 --world 8 --bandwidth-gbps 200");
    ASSERT_EQ(gbps.exit_code, 0) << gbps.err;
    EXPECT_NE(gbps.err.find("--bandwidth-gbps 200 read as 200 GB/s (1.6 Tb/s)"), std::string::npos)
        << gbps.err;
}

// The offload's PCIe rate takes a unit as --bandwidth does (--pcie, and --pcie-gbps for the
// old spelling); a bare number is refused naming the option, both spellings at once too.
TEST(BandwidthUnits, PcieTakesAUnitAndRefusesABareNumber) {
    const std::string base = "--params 1e9 --world 8 --stage 2 --offload-optimizer cpu --json ";
    for (const char* spelled : {"--pcie 200Gb/s", "--pcie-gbps 25GB/s"}) {
        const test::ProcessResult r = test::runTool("zerolab-plan", base + spelled);
        ASSERT_EQ(r.exit_code, 0) << spelled << ": " << r.err;
        EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out)["input"]["pcie_gbps"].get<double>(), 25)
            << spelled;
    }
    const test::ProcessResult fast = test::runTool("zerolab-plan", base + "--pcie 64GB/s");
    ASSERT_EQ(fast.exit_code, 0) << fast.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(fast.out)["input"]["pcie_gbps"].get<double>(), 64);
    for (const char* option : {"--pcie", "--pcie-gbps"}) {
        const test::ProcessResult bare = test::runTool("zerolab-plan", base + option + " 25");
        EXPECT_EQ(bare.exit_code, 2) << option;
        EXPECT_NE(bare.err.find(std::string(option) + " '25': a bare number"), std::string::npos)
            << bare.err;
        EXPECT_NE(bare.err.find("25GB/s (bytes per second)"), std::string::npos) << bare.err;
    }
    const test::ProcessResult both =
        test::runTool("zerolab-plan", base + "--pcie 25GB/s --pcie-gbps 25GB/s");
    EXPECT_EQ(both.exit_code, 2);
    EXPECT_NE(both.err.find("exclude each other"), std::string::npos) << both.err;
}

} // namespace
} // namespace zerolab
