// A monitor folder that cannot be made (issue 40): the csv_monitor's error names the
// folder and the file system's own reason (a read-only mount), not the missing folder
// that the file's open would report after it.
#include "runtime/monitor/csv_monitor.h"
#include "tests/support/tmpfs_mount.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace zerolab {
namespace {

TEST(MonitorFolderFaults, AReadOnlyMountIsReportedAsReadOnly) {
    test::TmpfsMount disk(64 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    if (!disk.remountReadOnly())
        GTEST_SKIP() << disk.reason();
    const std::string folder = disk.file("csv/job");
    CsvMonitor m(folder);
    try {
        m.write(8, {{"Train/Samples/lr", 0.001}});
        FAIL() << "wrote into a read-only mount";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("cannot make the csv_monitor folder " + folder), std::string::npos)
            << what;
        EXPECT_NE(what.find("Read-only file system"), std::string::npos) << what;
        EXPECT_EQ(what.find("No such file or directory"), std::string::npos) << what;
    }
    EXPECT_FALSE(std::filesystem::exists(folder));
}

} // namespace
} // namespace zerolab
