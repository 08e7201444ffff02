// runJob's child: the added environment and the PATH search reach the program, a missing
// program is said, and a fork while another thread is inside setenv does not hang the job
// (the child calls nothing between fork and exec that takes the environment lock).
#include "tests/support/temp_dir.h"

#include "runtime/launch/job_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace zerolab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

JobRequest shellJob(const std::string& script, const fs::path& dir) {
    JobRequest r;
    r.argv = {"sh", "-c", script};
    r.stdout_path = (dir / "job.out").string();
    r.stderr_path = (dir / "job.err").string();
    r.timeout_s = 60;
    return r;
}

class JobRunner : public ::testing::Test {
protected:
    test::TempDir m_temp{"job-runner"};
    const fs::path m_dir = m_temp.path();
};

} // namespace

TEST_F(JobRunner, TheAddedEnvironmentReachesTheChildAndNotTheParent) {
    ::setenv("ZEROLAB_JOB_KEPT", "parent", 1);
    ::setenv("ZEROLAB_JOB_REPLACED", "old", 1);
    JobRequest r =
        shellJob("echo \"$ZEROLAB_JOB_KEPT $ZEROLAB_JOB_REPLACED $ZEROLAB_JOB_ADDED\"", m_dir);
    r.env = {{"ZEROLAB_JOB_REPLACED", "new"}, {"ZEROLAB_JOB_ADDED", "added"}};
    const JobOutcome job = runJob(r);
    EXPECT_EQ(job.exit_code, 0) << job.err;
    EXPECT_EQ(job.out, "parent new added\n");
    EXPECT_STREQ(std::getenv("ZEROLAB_JOB_REPLACED"), "old");
    EXPECT_EQ(std::getenv("ZEROLAB_JOB_ADDED"), nullptr);
}

TEST_F(JobRunner, AMissingProgramIsSaid) {
    JobRequest r = shellJob("", m_dir);
    r.argv = {"zerolab-no-such-program"};
    const JobOutcome job = runJob(r);
    EXPECT_EQ(job.exit_code, 127);
    EXPECT_EQ(job.err, "zerolab-no-such-program: cannot execute: No such file or directory\n");
}

// Before the fix the child called setenv between fork and exec: when the fork caught the
// other thread inside setenv, the child waited forever on a lock nobody would release and
// the job ran into its timeout.
TEST_F(JobRunner, AForkDuringAnotherThreadsSetenvStillRunsTheJob) {
    ::setenv("ZEROLAB_JOB_SPIN", "a", 1);
    std::atomic<bool> done{false};
    std::thread spinner([&] {
        for (bool flip = false; !done.load(); flip = !flip)
            ::setenv("ZEROLAB_JOB_SPIN", flip ? "a" : "b", 1);
    });
    JobRequest r = shellJob("", m_dir);
    r.argv = {"true"};
    r.env = {{"ZEROLAB_JOB_ADDED", "1"}};
    r.timeout_s = 20;
    for (int i = 0; i < 100; ++i) {
        const JobOutcome job = runJob(r);
        if (job.timed_out || job.exit_code != 0) {
            done = true;
            spinner.join();
            FAIL() << "job " << i << " hung or failed: exit " << job.exit_code << ", "
                   << slurp(r.stderr_path);
        }
    }
    done = true;
    spinner.join();
}
