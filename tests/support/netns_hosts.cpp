// The emulated-hosts fixture: scripts/emulated-hosts does the work; this holds its name.
#include "tests/support/netns_hosts.h"

#include "tests/support/process.h"

#include <unistd.h>

namespace zerolab::test {

namespace {

constexpr int kSkipCode = 77; // emulated-hosts: namespaces cannot be made here

} // namespace

std::string NetnsHosts::tool() {
    return std::string(ZEROLAB_SOURCE_DIR) + "/scripts/emulated-hosts";
}

NetnsHosts::NetnsHosts(int hosts, const std::string& rate)
    : m_name("zlnet-" + std::to_string(getpid())) {
    // The name holds this process's pid, which is also the owner: what a test killed by
    // its timeout left behind is removed by the next fixture (sweep), and a pid reused
    // here is ours to clean.
    runProcess({tool(), "sweep"});
    runProcess({tool(), "down", "--name", m_name});
    const std::string pid = std::to_string(getpid());
    const ProcessResult up = runProcess({tool(), "up", "--hosts", std::to_string(hosts), "--rate",
                                         rate, "--name", m_name, "--owner", pid});
    m_up = up.exit_code == 0;
    m_skipped = up.exit_code == kSkipCode;
    m_reason = up.err;
}

NetnsHosts::~NetnsHosts() {
    if (m_up || !m_skipped)
        runProcess({tool(), "down", "--name", m_name});
}

std::string NetnsHosts::host(char which) const {
    return m_name + "-" + which;
}

std::vector<std::string> NetnsHosts::mpirun(int n, const std::string& program,
                                            const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {"env",    "ZEROLAB_MPIEXEC=" ZEROLAB_MPIEXEC,
                                     tool(),   "mpirun",
                                     "--name", m_name,
                                     "-np",    std::to_string(n),
                                     program};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

bool NetnsHosts::cut() const {
    return runProcess({tool(), "cut", "--name", m_name}).exit_code == 0;
}

} // namespace zerolab::test
