// Emulated hosts on this machine for the multi-host tests and benches: the network
// namespaces of scripts/emulated-hosts (own host names, veth links with addresses that
// exist only inside them, rate-limited by tc tbf, no shared memory between them), and the
// mpirun command line that runs a job across them. Made on construction, removed on
// destruction (with any process the job left in them). Needs root: where the namespaces
// cannot be made, skipped() is true and reason() says why, for GTEST_SKIP.
#pragma once

#include <string>
#include <vector>

namespace zerolab::test {

class NetnsHosts {
public:
    // `rate`: scripts/emulated-hosts --rate (unlimited, 1gbit, 200mbit, ...).
    explicit NetnsHosts(int hosts = 2, const std::string& rate = "unlimited");
    ~NetnsHosts();
    NetnsHosts(const NetnsHosts&) = delete;
    NetnsHosts& operator=(const NetnsHosts&) = delete;

    bool ok() const { return m_up; }
    bool skipped() const { return m_skipped; }
    // Why the namespaces are not there (skipped, or the error that stopped them).
    const std::string& reason() const { return m_reason; }
    // The --name of the hosts (their host names are name() + "-a", "-b", ...).
    const std::string& name() const { return m_name; }

    // The host names: 'a' (where mpirun runs, 10.254.7.1), 'b' (10.254.7.2), ...
    std::string host(char which) const;
    // mpirun, inside host a, starting n ranks of `program` with `args`, split evenly over
    // the hosts (the first get one more); TCP between the hosts (over the veth only),
    // shared memory within one; waiting ranks yield the CPU (mpi_yield_when_idle).
    std::vector<std::string> mpirun(int n, const std::string& program,
                                    const std::vector<std::string>& args) const;
    // Takes host a's end of the link down, as a cut cable would. True when done.
    bool cut() const;

    // scripts/emulated-hosts, for the tests of the tool itself.
    static std::string tool();

private:
    std::string m_name;
    bool m_up = false;
    bool m_skipped = false;
    std::string m_reason;
};

} // namespace zerolab::test
