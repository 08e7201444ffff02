// An MPI program for comm_nccl_ranks_test: ZeRO++'s communicator additions on the NCCL
// communicator over device memory, one GPU per rank, against the same references as the
// MPI communicator's (tests/comm/zeropp_comm_checks.h). Prints one line per failure and
// exits 1 if any; "rank R: ok" otherwise.
#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_nccl.h"
#include "tests/comm/zeropp_comm_checks.h"

#include <cstdio>
#include <cuda_runtime_api.h>
#include <exception>
#include <string>
#include <vector>

namespace {

// Buffers on the communicator's GPU; copies are synchronous, on the legacy default stream
// (the communicator's compute stream here), so every collective sees its inputs.
class DeviceMemory final : public zerolab::test::CheckMemory {
public:
    using CheckMemory::make;
    using CheckMemory::read;
    ~DeviceMemory() override {
        for (void* p : m_buffers)
            cudaFree(p);
    }
    void* make(const void* init, std::size_t bytes) override {
        void* p = nullptr;
        check(cudaMalloc(&p, bytes), "cudaMalloc");
        m_buffers.push_back(p);
        check(cudaMemcpy(p, init, bytes, cudaMemcpyHostToDevice), "cudaMemcpy(to device)");
        return p;
    }
    void read(void* host, const void* buf, std::size_t bytes) override {
        check(cudaMemcpy(host, buf, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(to host)");
    }

private:
    static void check(cudaError_t rc, const char* what) {
        if (rc != cudaSuccess)
            throw zerolab::CommError(std::string(what) + " failed: " + cudaGetErrorString(rc));
    }
    std::vector<void*> m_buffers;
};

} // namespace

int main(int argc, char** argv) {
    zerolab::MpiSession session(&argc, &argv);
    try {
        zerolab::NcclCommunicator world;
        int failures = 0;
        {
            DeviceMemory mem;
            failures = zerolab::test::ZeroPPChecks(world, mem).run();
        }
        if (failures == 0)
            std::printf("rank %d: ok\n", world.rank());
        return failures == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        std::fflush(stdout);
        zerolab::MpiSession::abort(1);
    }
}
