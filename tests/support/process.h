// Running programs from the tests (argv, never a shell): zerolab's executables,
// mpirun jobs of zerolab-train, processes in the background. One runner for all
// test folders.
#pragma once

#include <string>
#include <vector>

namespace zerolab::test {

struct ProcessResult {
    int exit_code = -1; // -1: killed by a signal
    std::string out;    // stdout
    std::string err;    // stderr
};

ProcessResult runProcess(const std::vector<std::string>& argv);
// The same with stdout opened on `stdout_path` (for instance /dev/full); out stays empty.
ProcessResult runProcessWithStdout(const std::vector<std::string>& argv,
                                   const std::string& stdout_path);

// build/bin/<tool>
std::string toolPath(const std::string& tool);

// build/bin/<tool> with `args` split on white space (the tests pass plain words and
// temp paths, none with spaces).
ProcessResult runTool(const std::string& tool, const std::string& args);

// A process started in the background; finish() waits for it and collects its output.
class BackgroundProcess {
public:
    // stdout_path: open that file as its stdout instead of collecting it.
    explicit BackgroundProcess(const std::vector<std::string>& argv,
                               const std::string& stdout_path = {});
    ~BackgroundProcess();
    int pid() const { return m_pid; }
    ProcessResult finish();

private:
    int m_pid = -1;
    std::string m_out;
    std::string m_err;
};

// mpirun -np n --oversubscribe --bind-to none <program> args...
std::vector<std::string> mpirun(int n, const std::string& program,
                                const std::vector<std::string>& args);

// mpirun -np n --oversubscribe <bin_dir>/zerolab-train args...
std::vector<std::string> mpirunTrain(int n, const std::vector<std::string>& args);

// A pid that was a process and is no more: a child that exited and was reaped (for the
// sweeps of what gone processes left).
int deadPid();

} // namespace zerolab::test
