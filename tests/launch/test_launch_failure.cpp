// The failure parser over messages Open MPI 4.1 really prints (copied from runs on
// this machine: kill -9 of a rank, a missing executable, too few slots, hostfile
// errors, root without overrides, a rank's non-zero exit).
#include "runtime/launch_failure.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

const char* kBox = "--------------------------------------------------------------------------\n";

TEST(LaunchFailure, RankKilledBySignal) {
    const std::string err =
        std::string("[1,0]<stderr>:step 12\n") + kBox +
        "mpirun noticed that process rank 1 with PID 4242 on node vm exited on signal 9 "
        "(Killed).\n" +
        kBox;
    const auto f = parseLaunchFailure(err);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::RankSignaled);
    EXPECT_EQ(f->rank, 1);
    EXPECT_EQ(f->pid, 4242);
    EXPECT_EQ(f->host, "vm");
    EXPECT_EQ(f->signal, 9);
    EXPECT_EQ(f->signal_name, "Killed");
    EXPECT_NE(f->summary.find("Rank 1"), std::string::npos) << f->summary;
    EXPECT_NE(f->summary.find("out-of-memory"), std::string::npos) << f->summary;
}

TEST(LaunchFailure, SegfaultNamesTheSignal) {
    const auto f = parseLaunchFailure("mpirun noticed that process rank 0 with PID 0 on node "
                                      "n1 exited on signal 11 (Segmentation fault).");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->rank, 0);
    EXPECT_EQ(f->signal, 11);
    EXPECT_NE(f->summary.find("Segmentation fault"), std::string::npos);
}

TEST(LaunchFailure, MissingExecutable) {
    const std::string err = std::string(kBox) +
                            "mpirun was unable to launch the specified application as it could "
                            "not access\nor execute an executable:\n\nExecutable: /nonexistent/x\n"
                            "Node: vm\n\nwhile attempting to start process rank 0.\n" +
                            kBox + "2 total processes failed to start\n";
    const auto f = parseLaunchFailure(err);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::ExecutableMissing);
    EXPECT_EQ(f->detail, "/nonexistent/x");
}

TEST(LaunchFailure, NotEnoughSlots) {
    const auto f = parseLaunchFailure(
        "There are not enough slots available in the system to satisfy the 8\nslots that were "
        "requested by the application:\n\n  true\n");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::NotEnoughSlots);
    EXPECT_EQ(f->detail, "8");
    EXPECT_NE(f->summary.find("oversubscribe"), std::string::npos);
}

TEST(LaunchFailure, HostfileMissingOrMalformed) {
    auto f = parseLaunchFailure("Open RTE was unable to open the hostfile:\n    /nonexistent\n"
                                "Check to make sure the path and filename are correct.\n");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::HostfileError);
    EXPECT_EQ(f->detail, "/nonexistent");
    f = parseLaunchFailure("Open RTE detected a parse error in the hostfile:\n    /tmp/hf\n"
                           "It occured on line number 1 on token 1.\n");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::HostfileError);
    EXPECT_NE(f->summary.find("line 1"), std::string::npos) << f->summary;
}

TEST(LaunchFailure, RootWithoutOverrides) {
    const auto f = parseLaunchFailure("mpirun has detected an attempt to run as root.\n");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::RunAsRoot);
}

TEST(LaunchFailure, RankNonZeroExit) {
    const auto f = parseLaunchFailure(
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[16540,1],2]\n  Exit code:    2\n");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::RankExited);
    EXPECT_EQ(f->rank, 2);
    EXPECT_EQ(f->exit_code, 2);
}

TEST(LaunchFailure, PortProblemAndNothing) {
    const auto f = parseLaunchFailure("[vm:123] bind() failed on error Address already in use");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, LaunchFailureKind::NetworkOrPermission);
    EXPECT_FALSE(parseLaunchFailure("[1,0]<stderr>:step 3 loss 4.1\n"));
    EXPECT_EQ(launcherMissing("/no/mpirun").kind, LaunchFailureKind::LauncherMissing);
    EXPECT_STREQ(launchFailureKindName(LaunchFailureKind::HostfileError), "HostfileError");
}

} // namespace
} // namespace zerolab
