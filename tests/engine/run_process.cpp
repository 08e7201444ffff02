// fork + execvp with stdout and stderr redirected into temporary files.
#include "run_process.h"

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

ProcessResult runProcess(const std::vector<std::string>& argv) {
    char outTmpl[] = "/tmp/zerolab-test-out-XXXXXX";
    char errTmpl[] = "/tmp/zerolab-test-err-XXXXXX";
    const int outFd = mkstemp(outTmpl);
    const int errFd = mkstemp(errTmpl);
    ProcessResult r;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(outFd, 1);
        dup2(errFd, 2);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        std::perror("execvp");
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(outFd);
    close(errFd);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(outTmpl);
    r.err = slurp(errTmpl);
    unlink(outTmpl);
    unlink(errTmpl);
    return r;
}

std::vector<std::string> mpirunTrain(int n, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {ZEROLAB_MPIEXEC,
                                     "-np",
                                     std::to_string(n),
                                     "--oversubscribe",
                                     "--bind-to",
                                     "none",
                                     std::string(ZEROLAB_BIN_DIR) + "/zerolab-train"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

} // namespace zerolab::test
