// fork + execvp with stdout and stderr redirected into temporary files.
#include "tests/support/process.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace zerolab::test {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv,
                                     const std::string& stdout_path) {
    char outTmpl[] = "/tmp/zerolab-test-out-XXXXXX";
    char errTmpl[] = "/tmp/zerolab-test-err-XXXXXX";
    const int outFd = mkstemp(outTmpl);
    const int errFd = mkstemp(errTmpl);
    m_out = outTmpl;
    m_err = errTmpl;
    m_pid = fork();
    if (m_pid == 0) {
        const int toFd =
            stdout_path.empty() ? outFd : ::open(stdout_path.c_str(), O_WRONLY | O_CREAT, 0644);
        if (toFd < 0) {
            std::perror(stdout_path.c_str());
            _exit(127);
        }
        dup2(toFd, 1);
        dup2(errFd, 2);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        std::perror("execvp");
        _exit(127);
    }
    close(outFd);
    close(errFd);
}

BackgroundProcess::~BackgroundProcess() {
    if (m_pid > 0) {
        kill(m_pid, SIGKILL);
        finish();
    }
}

ProcessResult BackgroundProcess::finish() {
    ProcessResult r;
    int status = 0;
    waitpid(m_pid, &status, 0);
    m_pid = -1;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(m_out);
    r.err = slurp(m_err);
    unlink(m_out.c_str());
    unlink(m_err.c_str());
    return r;
}

ProcessResult runProcess(const std::vector<std::string>& argv) {
    return BackgroundProcess(argv).finish();
}

ProcessResult runProcessWithStdout(const std::vector<std::string>& argv,
                                   const std::string& stdout_path) {
    return BackgroundProcess(argv, stdout_path).finish();
}

std::string toolPath(const std::string& tool) {
    return std::string(ZEROLAB_BIN_DIR) + "/" + tool;
}

ProcessResult runTool(const std::string& tool, const std::string& args) {
    std::vector<std::string> argv = {toolPath(tool)};
    std::istringstream words(args);
    for (std::string w; words >> w;)
        argv.push_back(w);
    return runProcess(argv);
}

std::vector<std::string> mpirun(int n, const std::string& program,
                                const std::vector<std::string>& args) {
    std::vector<std::string> argv = {
        ZEROLAB_MPIEXEC, "-np", std::to_string(n), "--oversubscribe", "--bind-to", "none", program};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

std::vector<std::string> mpirunTrain(int n, const std::vector<std::string>& args) {
    return mpirun(n, toolPath("zerolab-train"), args);
}

int deadPid() {
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

} // namespace zerolab::test
