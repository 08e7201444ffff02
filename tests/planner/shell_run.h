// Runs a shell command line with stdout and stderr captured to strings, for the
// planner's tests that launch zerolab-plan and mpirun zerolab-train.
#pragma once

#include <string>

namespace zerolab::test {

struct ShellRun {
    int code = -1; // exit status; -1 when killed by a signal
    std::string out;
    std::string err;
};

// command must already be shell-safe (the tests pass fixed words and temp paths).
ShellRun runShell(const std::string& command);

} // namespace zerolab::test
