// A killed calibration's jobs and work folder (calibrate_leftovers.h).
#include "runtime/train/calibrate_leftovers.h"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/prctl.h>
#include <unistd.h>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPrefix = "zerolab-calibrate-";

// The PID a work folder's name carries, or -1.
pid_t folderPid(const std::string& name) {
    if (name.rfind(kPrefix, 0) != 0)
        return -1;
    const std::string digits = name.substr(std::string(kPrefix).size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    return static_cast<pid_t>(std::stol(digits));
}

bool gone(pid_t pid) {
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

// The processes whose command line names `folder` (its arguments NUL-separated), killed.
int killProcessesNaming(const std::string& folder) {
    int killed = 0;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(e.path() / "cmdline", std::ios::binary);
        const std::string line((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        const pid_t pid = static_cast<pid_t>(std::stol(name));
        if (pid != ::getpid() && line.find(folder + "/") != std::string::npos &&
            ::kill(pid, SIGKILL) == 0)
            ++killed;
    }
    return killed;
}

} // namespace

std::string calibrateWorkDir(pid_t pid) {
    return (fs::temp_directory_path() / (kPrefix + std::to_string(pid))).string();
}

void endWithParent(pid_t parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) // died before the line above
        ::_exit(127);
}

void sweepCalibrateLeftovers(const std::function<void(const std::string&)>& said) {
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    if (ec)
        return;
    for (const fs::directory_entry& e : fs::directory_iterator(tmp, ec)) {
        const pid_t pid = folderPid(e.path().filename().string());
        if (pid <= 0 || pid == ::getpid() || !gone(pid) || !e.is_directory(ec))
            continue;
        const int killed = killProcessesNaming(e.path().string());
        std::error_code removed;
        fs::remove_all(e.path(), removed);
        said("swept " + e.path().string() + ", left by calibration pid " + std::to_string(pid) +
             " (gone)" +
             (killed > 0 ? ": ended " + std::to_string(killed) + " process(es) of its jobs" : "") +
             (removed ? "; cannot remove it: " + removed.message() : ""));
    }
}

} // namespace zerolab
