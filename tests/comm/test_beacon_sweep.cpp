// Stale collective beacons: a rank killed with SIGKILL (a sweep trial at its timeout) leaves
// /dev/shm/zerolab-beacon-<pid>; the next beacon made on the host removes those whose
// process is gone, and only those.
#include "runtime/comm/collective_beacon.h"

#include <gtest/gtest.h>

#include "tests/support/process.h"
#include <fcntl.h>
#include <sys/mman.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

void leaveName(const std::string& name) {
    const int fd = ::shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
    ASSERT_GE(fd, 0) << name;
    ::close(fd);
}

bool exists(const std::string& name) {
    return fs::exists("/dev/shm" + name);
}

TEST(BeaconSweep, ANewBeaconRemovesThoseOfGoneProcessesOnly) {
    const std::string stale = beaconName(test::deadPid());
    const std::string live = beaconName(::getppid()); // a process that runs on
    const std::string other = "/zerolab-beacon-x1";   // not a beacon's name
    leaveName(stale);
    leaveName(live);
    leaveName(other);
    {
        const CollectiveBeacon mine; // sweeps, then publishes its own
        EXPECT_FALSE(exists(stale)) << "a gone process's beacon is left";
        EXPECT_TRUE(exists(live)) << "a running process's beacon was removed";
        EXPECT_TRUE(exists(other));
        EXPECT_TRUE(exists(beaconName(::getpid())));
    }
    ::shm_unlink(live.c_str());
    ::shm_unlink(other.c_str());
}

} // namespace
} // namespace zerolab
