// zerolab-calibrate's own faults (issue 40 §7, §9, §11, §15): flags no machine can honour
// are exit 2 naming the flag before anything runs; a profile that cannot be written is
// exit 1 naming the path and the errno, with nothing stored; a store of a newer schema is
// refused before the calibration; a SIGKILLed calibration leaves no job running and the
// next one sweeps its work folder; a lost stdout is exit 1.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs_mount.h"
#include "tests/train/short_calibration.h"

#include "storage/profile_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> with(std::vector<std::string> argv, const std::string& flag,
                              const std::string& value) {
    const auto at = std::find(argv.begin(), argv.end(), flag);
    if (at != argv.end())
        *(at + 1) = value;
    else
        argv.insert(argv.end(), {flag, value});
    return argv;
}

// The calibration measured nothing: its first line of work was not said.
bool measuredNothing(const test::ProcessResult& r) {
    return r.err.find("kernels on") == std::string::npos &&
           r.err.find("collectives over") == std::string::npos;
}

// The processes whose command line names `text`.
std::vector<pid_t> processesNaming(const std::string& text) {
    std::vector<pid_t> found;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(e.path() / "cmdline", std::ios::binary);
        const std::string line((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        if (line.find(text) != std::string::npos)
            found.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return found;
}

TEST(CalibrateFaults, FlagsNoMachineCanHonourExitTwoNamingTheFlag) {
    test::TempDir dir("calibrate-flags");
    const std::string out = dir.file("profile.json");
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"--micro", "1000000000"},   {"--ranks", "1000"},          {"--max-bytes", "1e15"},
        {"--max-bytes", "-1"},       {"--max-bytes", "nan"},       {"--max-call-s", "-1"},
        {"--max-call-s", "nan"},     {"--emulated-hosts", "x;id"}, {"--emulated-hosts", "-x"},
        {"--emulated-hosts", "a/b"},
    };
    for (const auto& [flag, value] : bad) {
        SCOPED_TRACE(flag + " " + value);
        const auto t0 = std::chrono::steady_clock::now();
        const test::ProcessResult r =
            test::runProcess(with(test::shortCalibration(out), flag, value));
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("zerolab-calibrate: " + flag + ": "), std::string::npos) << r.err;
        EXPECT_TRUE(measuredNothing(r)) << r.err;
        EXPECT_LT(s, 10.0) << "refused before anything runs";
        EXPECT_FALSE(fs::exists(out));
    }
    // The bounds themselves are accepted: the refusal names the next problem, not them.
    const test::ProcessResult edge = test::runProcess(
        with(with(with(test::shortCalibration(dir.file("none/profile.json")), "--ranks", "64"),
                  "--max-call-s", "60"),
             "--emulated-hosts", "zl-probe_1.a"));
    EXPECT_EQ(edge.exit_code, 1) << edge.err;
    EXPECT_NE(edge.err.find("--out " + dir.file("none/profile.json")), std::string::npos)
        << edge.err;
}

// A missing folder, /dev/full and a read-only mount are said before anything is measured;
// nothing is stored, and /dev/full is not replaced.
TEST(CalibrateFaults, AnOutThatCannotBeWrittenIsExitOneBeforeMeasuring) {
    test::TempDir dir("calibrate-out");
    const std::string db = dir.file("runs.db");
    struct Case {
        std::string out;
        std::string says;
    };
    std::vector<Case> cases = {
        {dir.file("missing/profile.json"),
         "its folder does not exist: No such file or directory (errno 2)"},
        {"/dev/full", "not a regular file"},
    };
    test::TmpfsMount ro(64 * 1024);
    if (ro.ok() && ro.remountReadOnly())
        cases.push_back({ro.file("profile.json"), "cannot write in its folder " + ro.path() +
                                                      ": Read-only file system (errno 30)"});
    for (const Case& c : cases) {
        SCOPED_TRACE(c.out);
        auto argv = test::shortCalibration(c.out);
        argv.insert(argv.end(), {"--db", db});
        const test::ProcessResult r = test::runProcess(argv);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("zerolab-calibrate: --out " + c.out + ": " + c.says),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("no profile written or stored"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("profile written to"), std::string::npos) << r.err;
        EXPECT_TRUE(measuredNothing(r)) << r.err;
    }
    struct stat st = {};
    ASSERT_EQ(::stat("/dev/full", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full was replaced";
    if (fs::exists(db)) {
        RunStore store = RunStore::open(db, OpenMode::ReadOnly);
        EXPECT_FALSE(latestMachineProfile(store).has_value());
    }
}

// The disk fills while the profile is written (after the calibration): exit 1 naming the
// write and its errno, no temporary file left, nothing stored. Before: "profile written",
// exit 0, an empty or cut file, the profile in the store.
TEST(CalibrateFaults, AFullDiskAtTheWriteIsExitOneAndStoresNothing) {
    test::TmpfsMount disk(16 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    {
        std::ofstream fill(disk.file("fill"), std::ios::binary);
        const std::string page(4096, 'x');
        for (int i = 0; i < 64 && fill; ++i)
            fill << page << std::flush;
    }
    test::TempDir dir("calibrate-full");
    const std::string db = dir.file("runs.db");
    const std::string out = disk.file("profile.json");
    auto argv = test::shortCalibration(out);
    argv.insert(argv.end(), {"--db", db});
    const test::ProcessResult r = test::runProcess(argv);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("zerolab-calibrate: --out " + out +
                         ": write failed: No space left on device (errno 28)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("profile written to"), std::string::npos) << r.err;
    std::vector<std::string> left;
    for (const fs::directory_entry& e : fs::directory_iterator(disk.path()))
        left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"fill"}) << "a profile or a temporary file was left";
    RunStore store = RunStore::open(db, OpenMode::ReadOnly);
    EXPECT_FALSE(latestMachineProfile(store).has_value());
}

// A store of a newer schema is refused before the calibration (exit 2, as every tool
// refuses it): nothing measured, no --out written. Before: refused (exit 1) only after
// the whole calibration had run and written --out.
TEST(CalibrateFaults, ANewerStoreIsRefusedBeforeCalibrating) {
    test::TempDir dir("calibrate-newer");
    const std::string db = dir.file("runs.db");
    RunStore::open(db);
    sqlite3* handle = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(handle, "PRAGMA user_version = 99", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(handle);
    auto argv = test::shortCalibration(dir.file("profile.json"));
    argv.insert(argv.end(), {"--db", db});
    const test::ProcessResult r = test::runProcess(argv);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("newer than this build"), std::string::npos) << r.err;
    EXPECT_TRUE(measuredNothing(r)) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("profile.json")));
}

// SIGKILL mid-job: the job's mpirun and ranks end with it (PR_SET_PDEATHSIG), within
// seconds; the work folder stays (nothing ran to remove it) until the next calibration,
// which sweeps it. Before: they ran on for about 30 s, wrote their fragment, and the folder
// was left for good.
TEST(CalibrateFaults, AKilledCalibrationLeavesNoJobAndTheNextSweepsItsFolder) {
    test::TempDir dir("calibrate-kill");
    // Sizes up to 16 MiB: the job takes seconds, long enough to be caught running.
    test::BackgroundProcess calibration(
        with(test::shortCalibration(dir.file("profile.json")), "--max-bytes", "16777216"));
    const std::string folder = "/zerolab-calibrate-" + std::to_string(calibration.pid()) + "/";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
    bool jobRunning = false;
    while (!jobRunning && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        // The job's ranks (not only mpirun) are up: more than one process names the folder.
        jobRunning = processesNaming(folder).size() >= 2;
        int status = 0;
        if (::waitpid(calibration.pid(), &status, WNOHANG) == calibration.pid())
            FAIL() << "the calibration ended before its job could be caught: "
                   << calibration.finish().err;
    }
    ASSERT_TRUE(jobRunning) << "no job started in 180 s";
    ASSERT_EQ(::kill(calibration.pid(), SIGKILL), 0);
    const auto killedAt = std::chrono::steady_clock::now();
    while (!processesNaming(folder).empty() &&
           std::chrono::steady_clock::now() - killedAt < std::chrono::seconds(15))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(processesNaming(folder).empty()) << "the job outlived its calibration by 15 s";
    calibration.finish(); // reaped: its pid is gone
    const std::string left = (fs::temp_directory_path() / folder.substr(1)).string();
    ASSERT_TRUE(fs::exists(left)) << left;

    // The next calibration sweeps it first, whatever then stops it (here its --out).
    const test::ProcessResult next =
        test::runProcess(test::shortCalibration(dir.file("missing/profile.json")));
    EXPECT_EQ(next.exit_code, 1) << next.err;
    EXPECT_NE(next.err.find("swept " + left.substr(0, left.size() - 1)), std::string::npos)
        << next.err;
    EXPECT_FALSE(fs::exists(left));
}

// A folder of a calibration still running is kept: only a gone PID's is swept.
TEST(CalibrateFaults, TheSweepKeepsTheFolderOfALiveCalibration) {
    test::TempDir dir("calibrate-live");
    const std::string mine =
        (fs::temp_directory_path() / ("zerolab-calibrate-" + std::to_string(::getpid()))).string();
    fs::create_directories(mine);
    const test::ProcessResult r = test::runProcess(test::shortCalibration(dir.file("none/p.json")));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_TRUE(fs::exists(mine)) << r.err;
    fs::remove_all(mine);
}

// stdout on /dev/full: --help, --progress-json (stopped at its first line, before measuring)
// and --check exit 1 naming stdout. Before: exit 0, and --progress-json calibrated on.
TEST(CalibrateFaults, AFullStdoutIsExitOneNamingIt) {
    test::TempDir dir("calibrate-stdout");
    const std::string said = "zerolab-calibrate: cannot write to stdout: ";
    test::ProcessResult r =
        test::runProcessWithStdout({test::toolPath("zerolab-calibrate"), "--help"}, "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;

    auto argv = test::shortCalibration(dir.file("profile.json"));
    argv.push_back("--progress-json");
    r = test::runProcessWithStdout(argv, "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(said + "No space left on device"), std::string::npos) << r.err;
    EXPECT_TRUE(measuredNothing(r)) << r.err;
    EXPECT_FALSE(fs::exists(dir.file("profile.json")));

    const test::ProcessResult made =
        test::runProcess(test::shortCalibration(dir.file("made.json")));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    r = test::runProcessWithStdout(
        {test::toolPath("zerolab-calibrate"), "--check", dir.file("made.json"), "--rounds", "1"},
        "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
}

} // namespace
} // namespace zerolab
