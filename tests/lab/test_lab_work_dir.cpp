// The headless runner's work folders: a SIGKILLed `zerolab --run-lesson` leaves
// /tmp/zerolab-lesson-<pid>-*; the next run removes those whose owner is gone, unless kept
// on purpose (a failed run's logs), and never follows a link.
#include "tests/support/temp_dir.h"

#include "runtime/lab/lab_work_dir.h"

#include <gtest/gtest.h>

#include "tests/support/process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

fs::path folderWithLog(const fs::path& p) {
    fs::create_directories(p);
    std::ofstream(p / "run.out") << "log\n";
    return p;
}

TEST(LabWorkDir, TheNextRunRemovesWhatAGoneRunnerLeftAndNothingElse) {
    const test::TempDir temp("lesson-dirs");
    const fs::path tmp = temp.path();
    const std::string dead = std::to_string(test::deadPid());
    const fs::path left = folderWithLog(tmp / ("zerolab-lesson-" + dead + "-aaaaaa"));
    const fs::path kept = folderWithLog(tmp / ("zerolab-lesson-" + dead + "-bbbbbb"));
    keepLessonWorkDir(kept.string());
    const fs::path live =
        folderWithLog(tmp / ("zerolab-lesson-" + std::to_string(::getppid()) + "-cccccc"));
    const fs::path target = folderWithLog(tmp / "elsewhere");
    const fs::path link = tmp / ("zerolab-lesson-" + dead + "-dddddd");
    fs::create_directory_symlink(target, link);
    const fs::path old = folderWithLog(tmp / "zerolab-lesson-eeeeee"); // no owner in its name

    const std::string mine = makeLessonWorkDir(tmp.string());
    EXPECT_FALSE(fs::exists(left)) << "a gone runner's folder is left";
    EXPECT_TRUE(fs::exists(kept / "run.out")) << "a kept folder was removed";
    EXPECT_TRUE(fs::exists(live / "run.out")) << "a running runner's folder was removed";
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::exists(target / "run.out")) << "a link was followed";
    EXPECT_TRUE(fs::exists(old / "run.out"));
    EXPECT_EQ(fs::path(mine).parent_path(), tmp);
    EXPECT_EQ(fs::path(mine).filename().string().rfind(
                  "zerolab-lesson-" + std::to_string(::getpid()) + "-", 0),
              0u)
        << mine;
    EXPECT_EQ(fs::status(mine).permissions() & fs::perms::all, fs::perms::owner_all);
    EXPECT_EQ(sweepLessonWorkDirs(tmp.string()), 0) << "its own folder is not swept";
}

} // namespace
} // namespace zerolab
