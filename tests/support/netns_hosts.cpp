// The two-host fixture: tests/support/netns-hosts does the work; this holds its ID.
#include "tests/support/netns_hosts.h"

#include "tests/support/process.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace zerolab::test {

namespace {

constexpr int kSkipCode = 77; // netns-hosts: namespaces cannot be made here

std::string script(const std::string& name) {
    return std::string(ZEROLAB_SOURCE_DIR) + "/tests/support/" + name;
}

} // namespace

NetnsHosts::NetnsHosts() : m_id(std::to_string(getpid())) {
    // The ID is this process's pid: what a test killed by its timeout left behind is
    // removed by the next fixture (sweep), and a pid reused here is ours to clean.
    runProcess({script("netns-hosts"), "sweep"});
    runProcess({script("netns-hosts"), "down", m_id});
    const ProcessResult up = runProcess({script("netns-hosts"), "up", m_id});
    m_up = up.exit_code == 0;
    m_skipped = up.exit_code == kSkipCode;
    m_reason = up.err;
    m_dir = (std::filesystem::temp_directory_path() / ("zerolab-netns-" + m_id)).string();
    std::filesystem::create_directories(m_dir);
}

NetnsHosts::~NetnsHosts() {
    if (m_up || !m_skipped)
        runProcess({script("netns-hosts"), "down", m_id});
    std::filesystem::remove_all(m_dir);
}

std::string NetnsHosts::host(char which) const {
    return "zlnet-" + m_id + "-" + which;
}

std::vector<std::string> NetnsHosts::mpirun(int n, const std::string& program,
                                            const std::vector<std::string>& args) const {
    const std::string hostfile = m_dir + "/hostfile-" + std::to_string(n);
    std::ofstream(hostfile) << host('a') << " slots=" << n / 2 << "\n"
                            << host('b') << " slots=" << n - n / 2 << "\n";
    std::vector<std::string> argv = {
        script("netns-hosts"), "run", m_id, "a", ZEROLAB_MPIEXEC, "-np", std::to_string(n),
        "--hostfile", hostfile, "--mca", "plm_rsh_agent", script("netns-rsh"), "--mca", "btl",
        "tcp,vader,self", "--mca", "btl_tcp_if_include", "zl0", "--mca", "oob_tcp_if_include",
        "zl0",
        // Waiting ranks yield the CPU, as mpirun makes them do
        // on one oversubscribed host: after a cut the far
        // ranks wait until the fixture ends them.
        "--mca", "mpi_yield_when_idle", "1", "--bind-to", "none", program};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

bool NetnsHosts::cut() const {
    return runProcess({script("netns-hosts"), "cut", m_id}).exit_code == 0;
}

} // namespace zerolab::test
