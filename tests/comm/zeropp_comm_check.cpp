// An MPI program for test_zeropp_comm: ZeRO++'s communicator additions on the MPI
// communicator over host memory (zeropp_comm_checks.h). Prints one line per failure and
// exits 1 if any; "rank R: ok" otherwise.
#include "runtime/comm/comm_mpi.h"
#include "tests/comm/zeropp_comm_checks.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

namespace {

class HostMemory final : public zerolab::test::CheckMemory {
public:
    using CheckMemory::make;
    using CheckMemory::read;
    void* make(const void* init, std::size_t bytes) override {
        auto& b = m_buffers.emplace_back(static_cast<const char*>(init),
                                         static_cast<const char*>(init) + bytes);
        return b.data();
    }
    void read(void* host, const void* buf, std::size_t bytes) override {
        std::memcpy(host, buf, bytes);
    }

private:
    std::deque<std::vector<char>> m_buffers;
};

} // namespace

int main(int argc, char** argv) {
    zerolab::MpiSession session(&argc, &argv);
    zerolab::MpiCommunicator world;
    HostMemory mem;
    const int failures = zerolab::test::ZeroPPChecks(world, mem).run();
    if (failures == 0)
        std::printf("rank %d: ok\n", world.rank());
    return failures == 0 ? 0 : 1;
}
