// scripts/emulated-hosts as a tool (docs/hosts.md): up makes the hosts, their links and
// rate limits and a hostfile; down, a failing `up -- CMD` and a killed one leave nothing
// behind (no namespace, no state folder); a bad rate is refused naming it; two sets of
// hosts coexist under their own names. Root only (skipped elsewhere, with the reason).
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

} // namespace
} // namespace zerolab
