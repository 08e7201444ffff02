// scripts/emulated-hosts as a tool (docs/hosts.md): up makes the hosts, their links and
// rate limits and a hostfile; down, a failing `up -- CMD` and a killed one leave nothing
// behind (no namespace, no state folder), and what an `up` killed with KILL left, `sweep`
// removes; bad rates, numbers and names are refused naming them; two sets of hosts coexist
// under their own names, a '.' in a name matching only a '.'. Root only (skipped elsewhere).
#include "tests/support/netns_hosts.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

const std::string kStateRoot = "/run/zerolab-emulated-hosts";

// The network namespaces whose names start with `prefix`-.
std::string namespacesOf(const std::string& prefix) {
    const test::ProcessResult r = test::runProcess({"ip", "netns", "list"});
    std::istringstream in(r.out);
    std::string line, found;
    while (std::getline(in, line))
        if (line.rfind(prefix + "-", 0) == 0)
            found += line.substr(0, line.find(' ')) + " ";
    return found;
}

class EmulatedHosts : public ::testing::Test {
protected:
    void SetUp() override {
        m_name = "zleh-t" + std::to_string(getpid());
        const test::ProcessResult probe = up({"--hosts", "2", "--rate", "1gbit"});
        if (probe.exit_code == 77)
            GTEST_SKIP() << probe.err;
        ASSERT_EQ(probe.exit_code, 0) << probe.err;
        down(m_name);
    }
    void TearDown() override {
        down(m_name);
        down(m_name + "x");
    }
    test::ProcessResult up(std::vector<std::string> args, const std::string& name = "") const {
        args.insert(args.begin(),
                    {test::NetnsHosts::tool(), "up", "--name", name.empty() ? m_name : name});
        return test::runProcess(args);
    }
    static void down(const std::string& name) {
        test::runProcess({test::NetnsHosts::tool(), "down", "--name", name});
    }
    void expectNothingLeft(const std::string& name) const {
        EXPECT_EQ(namespacesOf(name), "");
        EXPECT_FALSE(fs::exists(kStateRoot + "/" + name));
    }
    std::string m_name;
};

TEST_F(EmulatedHosts, UpMakesLimitedLinksAndDownLeavesNothing) {
    const test::ProcessResult r = up({"--hosts", "3", "--rate", "200mbit"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string made = namespacesOf(m_name);
    for (const char* host : {"-a ", "-b ", "-c ", "-sw "})
        EXPECT_NE(made.find(m_name + host), std::string::npos) << made;
    std::ifstream hostfile(kStateRoot + "/" + m_name + "/hostfile");
    std::stringstream text;
    text << hostfile.rdbuf();
    EXPECT_EQ(text.str(),
              m_name + "-a slots=2\n" + m_name + "-b slots=2\n" + m_name + "-c slots=2\n");
    const test::ProcessResult qdisc =
        test::runProcess({"tc", "-n", m_name + "-b", "qdisc", "show", "dev", "zl0"});
    EXPECT_NE(qdisc.out.find("tbf"), std::string::npos) << qdisc.out;
    EXPECT_NE(qdisc.out.find("200Mbit"), std::string::npos) << qdisc.out;
    const test::ProcessResult name =
        test::runProcess({test::NetnsHosts::tool(), "run", "--name", m_name, "c", "hostname"});
    EXPECT_EQ(name.out, m_name + "-c\n");
    EXPECT_EQ(test::runProcess({test::NetnsHosts::tool(), "down", "--name", m_name}).exit_code, 0);
    expectNothingLeft(m_name);
}

TEST_F(EmulatedHosts, TwoSetsCoexistAndANameUpIsRefused) {
    ASSERT_EQ(up({"--hosts", "2", "--rate", "unlimited"}).exit_code, 0);
    ASSERT_EQ(up({"--hosts", "2", "--rate", "1gbit"}, m_name + "x").exit_code, 0);
    const test::ProcessResult again = up({"--hosts", "2", "--rate", "1gbit"});
    EXPECT_EQ(again.exit_code, 1);
    EXPECT_NE(again.err.find("are up already"), std::string::npos) << again.err;
    down(m_name);
    expectNothingLeft(m_name);
    EXPECT_NE(namespacesOf(m_name + "x"), "");
    down(m_name + "x");
    expectNothingLeft(m_name + "x");
}

TEST_F(EmulatedHosts, ABareRateIsRefusedNamingIt) {
    const test::ProcessResult r = up({"--hosts", "2", "--rate", "200"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--rate '200'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bits per second"), std::string::npos) << r.err;
    expectNothingLeft(m_name);
}

TEST_F(EmulatedHosts, AFailingCommandEndsWithItsCodeAndRemovesTheHosts) {
    const test::ProcessResult r =
        up({"--hosts", "2", "--rate", "1gbit", "--", "sh", "-c",
            "test -n \"$ZEROLAB_EMULATED_HOSTS\" && ip netns list | grep -q -- -b && exit 3"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    expectNothingLeft(m_name);
}

TEST_F(EmulatedHosts, KillingUpWithACommandRemovesTheHosts) {
    test::BackgroundProcess job({test::NetnsHosts::tool(), "up", "--name", m_name, "--hosts", "2",
                                 "--rate", "1gbit", "--", "sleep", "60"});
    // Wait (bounded, not timed) until the hosts are up.
    for (int i = 0; i < 200 && !fs::exists(kStateRoot + "/" + m_name + "/hostfile"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int i = 0; i < 200 && namespacesOf(m_name).find("-b") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_NE(namespacesOf(m_name), "");
    ::kill(job.pid(), SIGTERM);
    job.finish();
    expectNothingLeft(m_name);
}

TEST_F(EmulatedHosts, ADotInANameIsADotNotAWildcard) {
    ASSERT_EQ(up({"--hosts", "2", "--rate", "1gbit"}).exit_code, 0);
    ASSERT_EQ(up({"--hosts", "3", "--rate", "1gbit"}, m_name + "x").exit_code, 0);
    // "zleh-t123." once matched the namespaces of zleh-t1234 (and, as a prefix, of zleh-t1234x).
    const std::string pattern = m_name.substr(0, m_name.size() - 1) + ".";
    const test::ProcessResult r =
        test::runProcess({test::NetnsHosts::tool(), "down", "--name", pattern});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("nothing to remove"), std::string::npos) << r.err;
    for (const char* host : {"-a ", "-b "})
        EXPECT_NE(namespacesOf(m_name).find(m_name + host), std::string::npos);
    EXPECT_NE(namespacesOf(m_name + "x").find(m_name + "x-sw"), std::string::npos);
    const test::ProcessResult run =
        test::runProcess({test::NetnsHosts::tool(), "run", "--name", m_name + "x", ".", "true"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_NE(run.err.find("no host '.'"), std::string::npos) << run.err;
}

TEST_F(EmulatedHosts, RatesTcCannotHoldAreRefusedNamingThem) {
    // tc refuses the first and the last ("the rate parameter is mandatory"); at 1kbit its
    // 64 KiB bucket overflows the kernel's ticks (burst 31176b, lat 275s).
    for (const char* rate : {"0.001kbit", "1kbit", "99999999999999999gbit", "1000gbit"}) {
        const test::ProcessResult r = up({"--hosts", "2", "--rate", rate});
        EXPECT_EQ(r.exit_code, 2) << rate << ": " << r.err;
        EXPECT_NE(r.err.find("--rate '" + std::string(rate) + "': from 8kbit to 100gbit"),
                  std::string::npos)
            << r.err;
        expectNothingLeft(m_name);
    }
    const test::ProcessResult slow = up({"--hosts", "2", "--rate", "8kbit"});
    EXPECT_EQ(slow.exit_code, 0) << slow.err;
}

TEST_F(EmulatedHosts, NumbersAreWholeAndBoundedNamingTheFlag) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--hosts", "08", "--rate", "1gbit"}, "--hosts '08': a whole number from 2 to 16"},
        {{"--hosts", "2", "--rate", "1gbit", "--slots", "99999999999"},
         "--slots '99999999999': a whole number from 1 to 1024"},
        {{"--hosts", "2", "--rate", "1gbit", "--owner", "-1"}, "--owner '-1': a whole number"},
        {{"--hosts", "2", "--rate", "1gbit", "--owner", "x y"}, "--owner 'x y': a whole number"},
    };
    for (const auto& [args, message] : cases) {
        const test::ProcessResult r = up(args);
        EXPECT_EQ(r.exit_code, 2) << message << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        expectNothingLeft(m_name);
    }
    ASSERT_EQ(up({"--hosts", "2", "--rate", "1gbit"}).exit_code, 0);
    for (const char* np : {"08", "12345678901234567890"}) {
        const test::ProcessResult r = test::runProcess(
            {test::NetnsHosts::tool(), "mpirun", "--name", m_name, "-np", np, "true"});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("-np '" + std::string(np) + "': a whole number from 1 to 4096"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(r.err.find("Illegal number"), std::string::npos) << r.err;
    }
}

TEST_F(EmulatedHosts, ANameOutsideTheStateFolderIsRefused) {
    for (const char* name : {"../..", ".."}) {
        const test::ProcessResult r =
            test::runProcess({test::NetnsHosts::tool(), "hostfile", "--name", name});
        EXPECT_EQ(r.exit_code, 2) << name;
        EXPECT_EQ(r.out, "") << name;
        EXPECT_NE(r.err.find("--name '" + std::string(name) + "'"), std::string::npos) << r.err;
    }
}

TEST_F(EmulatedHosts, SweepRemovesWhatAnUpKilledWithKillLeft) {
    // No --owner: only the `up` itself owned the hosts while it made them.
    test::BackgroundProcess job(
        {test::NetnsHosts::tool(), "up", "--name", m_name, "--hosts", "16", "--rate", "1gbit"});
    // Wait (bounded, not timed) until it is half-way: some hosts made, not all.
    for (int i = 0; i < 400 && namespacesOf(m_name).find(m_name + "-c ") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(job.pid(), SIGKILL);
    job.finish();
    const std::string left = namespacesOf(m_name);
    ASSERT_NE(left, "");
    ASSERT_EQ(left.find(m_name + "-p "), std::string::npos) << "up finished before the kill";
    // `list` names the hosts that exist, and says whose they are.
    const test::ProcessResult list = test::runProcess({test::NetnsHosts::tool(), "list"});
    std::istringstream made(left);
    for (std::string ns; made >> ns;)
        if (ns != m_name + "-sw") {
            EXPECT_NE(list.out.find(ns + " "), std::string::npos) << ns << " in " << list.out;
        }
    EXPECT_NE(list.out.find("left by a killed up"), std::string::npos) << list.out;
    EXPECT_EQ(test::runProcess({test::NetnsHosts::tool(), "sweep"}).exit_code, 0);
    expectNothingLeft(m_name);
}

} // namespace
} // namespace zerolab
