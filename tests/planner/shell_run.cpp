// runShell (shell_run.h): std::system with stdout/stderr redirected to temp files.
#include "shell_run.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace zerolab::test {

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

} // namespace

ShellRun runShell(const std::string& command) {
    static std::atomic<int> counter{0};
    const fs::path dir =
        fs::temp_directory_path() /
        ("zerolab-planner-run-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir);
    const std::string cmd =
        command + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    ShellRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir / "out");
    r.err = slurp(dir / "err");
    fs::remove_all(dir);
    return r;
}

} // namespace zerolab::test
