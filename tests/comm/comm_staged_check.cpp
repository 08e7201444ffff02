// An MPI program for test_comm_staged: every collective of the Communicator through
// StagedCommunicator (over CPU kernels' memory) against the same collective on the
// MPI communicator directly, blocking and non-blocking, fp32 and bf16, at sizes
// around the chunking edges; and the local placement of the ranks. Prints one line per
// failure and exits 1 if any; "rank R: ok" otherwise.
#include "kernels/kernels.h"
#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_staged.h"
#include "runtime/comm/local_ranks.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace zerolab;

int g_failures = 0;

void fail(int rank, const std::string& what) {
    std::printf("rank %d: FAILED %s\n", rank, what.c_str());
    ++g_failures;
}

// Small integers: exact in fp32 and bf16, and so are their sums over a few ranks.
std::vector<char> pattern(int rank, std::size_t elems, CommDType t) {
    std::vector<char> out(elems * commDTypeBytes(t));
    for (std::size_t i = 0; i < elems; ++i) {
        const float v = static_cast<float>((rank + 1) * static_cast<int>(i % 7) - 3);
        if (t == CommDType::F32)
            std::memcpy(out.data() + 4 * i, &v, 4);
        else {
            const Bf16 b = bf16FromFloat(v);
            std::memcpy(out.data() + 2 * i, &b, 2);
        }
    }
    return out;
}

// Runs collective `c` on `count` elements both ways and compares the bytes the
// Communicator contract defines.
void check(MpiCommunicator& mpi, StagedCommunicator& staged, Kernels& k, Collective c,
           std::size_t count, CommDType t, bool async) {
    const int rank = mpi.rank(), n = mpi.size();
    const std::size_t esz = commDTypeBytes(t);
    const std::size_t elems = c == Collective::AllReduce || c == Collective::Broadcast
                                  ? count
                                  : count * static_cast<std::size_t>(n);
    std::vector<char> want = pattern(rank, elems, t);
    void* dev = k.allocate(want.size());
    k.copyToDevice(dev, want.data(), want.size());
    const int root = n - 1;
    switch (c) {
    case Collective::AllReduce:
        mpi.allReduce(want.data(), count, t);
        if (async)
            staged.startAllReduce(dev, count, t).wait();
        else
            staged.allReduce(dev, count, t);
        break;
    case Collective::ReduceScatter:
        mpi.reduceScatter(want.data(), count, t);
        if (async)
            staged.startReduceScatter(dev, count, t).wait();
        else
            staged.reduceScatter(dev, count, t);
        break;
    case Collective::AllGather:
        mpi.allGather(want.data(), count, t);
        if (async)
            staged.startAllGather(dev, count, t).wait();
        else
            staged.allGather(dev, count, t);
        break;
    case Collective::Broadcast:
        mpi.broadcast(want.data(), count, t, root);
        staged.broadcast(dev, count, t, root);
        break;
    }
    std::vector<char> got(want.size());
    k.copyToHost(got.data(), dev, got.size());
    k.release(dev);
    // Reduce-scatter defines only this rank's slice.
    const std::size_t from = c == Collective::ReduceScatter ? rank * count * esz : 0;
    const std::size_t bytes = c == Collective::ReduceScatter ? count * esz : want.size();
    if (std::memcmp(got.data() + from, want.data() + from, bytes) != 0)
        fail(rank, "collective " + std::to_string(static_cast<int>(c)) + " count " +
                       std::to_string(count) + (t == CommDType::BF16 ? " bf16" : " fp32") +
                       (async ? " non-blocking" : " blocking"));
}

} // namespace

int main(int argc, char** argv) {
    MpiSession session(&argc, &argv);
    MpiCommunicator mpi;
    auto kernels = makeCpuKernels(1);
    StagedCommunicator staged(mpi, *kernels);
    const int rank = mpi.rank();

    int calls = 0;
    for (Collective c : {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather,
                         Collective::Broadcast})
        for (CommDType t : {CommDType::F32, CommDType::BF16})
            for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{65537}})
                for (bool async : {false, true}) {
                    if (c == Collective::Broadcast && async)
                        continue; // no non-blocking broadcast in the interface
                    check(mpi, staged, *kernels, c, count, t, async);
                    ++calls;
                }
    // Every staged collective ran exactly one host collective, and was timed.
    const CommStats s = staged.takeStats();
    int stagedCalls = 0;
    for (const auto& per : s.per)
        stagedCalls += per.calls;
    if (stagedCalls != 2 * calls) // the direct MPI calls count in the same host stats
        fail(rank, "stats count " + std::to_string(stagedCalls) + " host collectives, expected " +
                       std::to_string(2 * calls));
    if (!(s.totalMs() > 0) || !(s.exposed_ms > 0))
        fail(rank, "staged collectives were not timed");

    // One host: local ranks are the world ranks.
    const LocalPlacement p = findLocalPlacement(staged);
    if (p.local_rank != rank || p.local_size != mpi.size())
        fail(rank, "local placement " + std::to_string(p.local_rank) + "/" +
                       std::to_string(p.local_size));

    if (g_failures == 0)
        std::printf("rank %d: ok\n", rank);
    std::fflush(stdout);
    return g_failures == 0 ? 0 : 1;
}
