// Two "hosts" on this machine for the multi-host tests: the network namespaces of
// tests/support/netns-hosts (own host names, a veth link with addresses that exist only
// inside them, no shared memory between them), and the mpirun command line that runs a
// job across them through the rsh agent tests/support/netns-rsh. Made on construction,
// removed on destruction (with any process the job left in them). Needs root: where the
// namespaces cannot be made, skipped() is true and reason() says why, for GTEST_SKIP.
#pragma once

#include <string>
#include <vector>

namespace zerolab::test {

class NetnsHosts {
public:
    NetnsHosts();
    ~NetnsHosts();
    NetnsHosts(const NetnsHosts&) = delete;
    NetnsHosts& operator=(const NetnsHosts&) = delete;

    bool ok() const { return m_up; }
    bool skipped() const { return m_skipped; }
    // Why the namespaces are not there (skipped, or the error that stopped them).
    const std::string& reason() const { return m_reason; }

    // The host names: 'a' (where mpirun runs, 10.254.7.1) or 'b' (10.254.7.2).
    std::string host(char which) const;
    // mpirun, inside host a, starting n ranks of `program` with `args`: the first n / 2 on
    // host a, the rest on host b; TCP between the hosts (over the veth only), shared
    // memory within one; waiting ranks yield the CPU (mpi_yield_when_idle).
    std::vector<std::string> mpirun(int n, const std::string& program,
                                    const std::vector<std::string>& args) const;
    // Takes host a's end of the link down, as a cut cable would. True when done.
    bool cut() const;

private:
    std::string m_id;
    std::string m_dir; // the hostfiles
    bool m_up = false;
    bool m_skipped = false;
    std::string m_reason;
};

} // namespace zerolab::test
