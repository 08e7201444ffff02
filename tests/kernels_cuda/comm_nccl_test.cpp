// The NCCL communicator on one rank (MPI singleton, GPU 0): the collectives keep
// a world-of-one's data as it is (sum and average of one rank), in place at the
// offsets the Communicator contract names, in fp32 and bf16, blocking and
// non-blocking, each counted and timed once; host helpers go over MPI. ZeRO++'s
// additions on one rank: all-to-all, byte payloads, sub-communicators counted into the
// world (several ranks: comm_nccl_ranks_test).
#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_nccl.h"
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace zerolab {
namespace {

using test::DeviceVec;
using test::Rng;
using test::toFloat;
using FVec = std::vector<float>;

// MPI may be initialised once per process; it is finalised at exit.
void ensureMpi() {
    static MpiSession session(nullptr, nullptr);
}

class NcclCommunicatorTest : public test::CudaVsCpuTest {
protected:
    void SetUp() override {
        test::CudaVsCpuTest::SetUp();
        if (IsSkipped())
            return;
        ensureMpi();
    }
};

TEST_F(NcclCommunicatorTest, OneRankCollectivesKeepTheData) {
    for (NcclReduce reduce : {NcclReduce::Sum, NcclReduce::Average}) {
        NcclCommunicator comm(reduce);
        ASSERT_EQ(comm.size(), 1);
        ASSERT_EQ(comm.rank(), 0);
        comm.setComputeStream(static_cast<CudaKernels&>(*gpu).stream());
        Rng rng(301);
        const FVec x = toFloat(rng.uniform(4099));
        DeviceVec<float> buf(*gpu, x);
        comm.allReduce(buf.get(), x.size(), CommDType::F32);
        comm.reduceScatter(buf.get(), x.size(), CommDType::F32);
        comm.allGather(buf.get(), x.size(), CommDType::F32);
        comm.broadcast(buf.get(), x.size(), CommDType::F32, 0);
        EXPECT_EQ(buf.host(), x);

        std::vector<Bf16> x16(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            x16[i] = bf16FromFloat(x[i]);
        DeviceVec<Bf16> buf16(*gpu, x16);
        CommHandle a = comm.startAllReduce(buf16.get(), x16.size(), CommDType::BF16);
        CommHandle b = comm.startReduceScatter(buf16.get(), x16.size(), CommDType::BF16);
        CommHandle c = comm.startAllGather(buf16.get(), x16.size(), CommDType::BF16);
        c.wait();
        b.wait();
        a.wait();
        EXPECT_TRUE(test::sameBits(buf16.host(), x16));

        const CommStats st = comm.takeStats();
        EXPECT_EQ(st[Collective::AllReduce].calls, 2);
        EXPECT_EQ(st[Collective::ReduceScatter].calls, 2);
        EXPECT_EQ(st[Collective::AllGather].calls, 2);
        EXPECT_EQ(st[Collective::Broadcast].calls, 1);
        EXPECT_EQ(st[Collective::AllReduce].bytes, static_cast<long long>(x.size() * (4 + 2)));
        EXPECT_GE(st.totalMs(), 0.0);
        EXPECT_EQ(comm.takeStats().totalBytes(), 0);
    }
}

TEST_F(NcclCommunicatorTest, CollectivesWaitForTheComputeStream) {
    NcclCommunicator comm;
    comm.setComputeStream(static_cast<CudaKernels&>(*gpu).stream());
    const std::size_t n = 1 << 22;
    DeviceVec<float> buf(*gpu, FVec(n, 1.0f));
    // Queued on the compute stream and not waited for: the collective must see 2s, then the
    // scale issued after it must not run before it (it waits on the host).
    gpu->scale(buf.get(), 2.0f, n);
    comm.allReduce(buf.get(), n, CommDType::F32);
    gpu->scale(buf.get(), 3.0f, n);
    const FVec got = buf.host();
    for (std::size_t i = 0; i < n; i += 4099)
        ASSERT_EQ(got[i], 6.0f) << "at " << i;
}

TEST_F(NcclCommunicatorTest, HostHelpersGoOverMpi) {
    NcclCommunicator comm;
    EXPECT_DOUBLE_EQ(comm.sumDouble(2.5), 2.5);
    int v = 7, gathered = 0;
    comm.broadcastBytes(&v, sizeof v, 0);
    comm.gatherBytes(&v, sizeof v, &gathered);
    EXPECT_EQ(gathered, 7);
    comm.barrier();
    EXPECT_EQ(comm.device(), 0);
    EXPECT_FALSE(comm.host().empty());
}

// Expects `call` to throw CommError whose message contains `part`.
template <typename Call> void expectCommError(Call call, const std::string& part) {
    try {
        call();
        ADD_FAILURE() << "no CommError; expected one naming \"" << part << "\"";
    } catch (const CommError& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST_F(NcclCommunicatorTest, AllToAllOnOneRankIsItsOwnBlockAfterTheComputeStream) {
    NcclCommunicator comm;
    comm.setComputeStream(static_cast<CudaKernels&>(*gpu).stream());
    Rng rng(302);
    const FVec x = toFloat(rng.uniform(4099));
    DeviceVec<float> send(*gpu, x);
    DeviceVec<float> recv(*gpu, FVec(x.size(), -1.0f));
    // Queued on the compute stream and not waited for: the all-to-all must send 2x.
    gpu->scale(send.get(), 2.0f, x.size());
    comm.allToAll(send.get(), recv.get(), x.size(), CommDType::F32);
    const FVec got = recv.host();
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(got[i], 2.0f * x[i]) << "at " << i;

    std::vector<std::uint8_t> bytes(1001);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(i * 37 + 5);
    DeviceVec<std::uint8_t> bsend(*gpu, bytes);
    DeviceVec<std::uint8_t> brecv(*gpu, std::vector<std::uint8_t>(bytes.size(), 0xEE));
    comm.startAllToAll(bsend.get(), brecv.get(), bytes.size(), CommDType::U8).wait();
    EXPECT_EQ(brecv.host(), bytes);

    const CommStats st = comm.takeStats();
    EXPECT_EQ(st.alltoall.calls, 2);
    EXPECT_EQ(st.alltoall.bytes, static_cast<long long>(x.size() * 4 + bytes.size()));
    EXPECT_GE(st.alltoall.ms, 0.0);
    EXPECT_EQ(st.alltoall.traffic, 0.0); // a world of one sends nothing
    EXPECT_EQ(st.link.total(), 0.0);
    EXPECT_EQ(st.totalBytes(), st.alltoall.bytes);
}

TEST_F(NcclCommunicatorTest, BytePayloadsMoveAndAreNeverSummed) {
    NcclCommunicator comm;
    comm.setComputeStream(static_cast<CudaKernels&>(*gpu).stream());
    std::vector<std::uint8_t> bytes(517);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(255 - i % 251);
    DeviceVec<std::uint8_t> buf(*gpu, bytes);
    comm.allGather(buf.get(), bytes.size(), CommDType::U8);
    comm.startAllGather(buf.get(), bytes.size(), CommDType::U8).wait();
    comm.broadcast(buf.get(), bytes.size(), CommDType::U8, 0);
    EXPECT_EQ(buf.host(), bytes);
    expectCommError([&] { comm.allReduce(buf.get(), bytes.size(), CommDType::U8); },
                    "all-reduce: byte payloads cannot be summed");
    expectCommError([&] { comm.startReduceScatter(buf.get(), bytes.size(), CommDType::U8); },
                    "reduce-scatter: byte payloads cannot be summed");
    const CommStats st = comm.takeStats();
    EXPECT_EQ(st[Collective::AllGather].calls, 2);
    EXPECT_EQ(st[Collective::AllReduce].calls, 0);
    EXPECT_EQ(st[Collective::AllGather].bytes, static_cast<long long>(2 * bytes.size()));
}

TEST_F(NcclCommunicatorTest, GroupsOfOneCountIntoTheWorld) {
    NcclCommunicator world;
    world.setComputeStream(static_cast<CudaKernels&>(*gpu).stream());
    world.setRanksPerHost(1);
    expectCommError([&] { world.setRanksPerHost(2); }, "2 ranks per host do not divide");
    expectCommError([&] { world.split(CommGroup::Within, 2); }, "groups of 2 ranks");
    auto within = world.split(CommGroup::Within, 1);
    auto across = world.split(CommGroup::Across, 1);
    ASSERT_EQ(within->size(), 1);
    ASSERT_EQ(across->size(), 1);
    EXPECT_EQ(within->rank(), 0);
    EXPECT_EQ(across->host(), world.host());
    expectCommError([&] { within->split(CommGroup::Within, 1); }, "member 0 of a group of 1");

    Rng rng(303);
    const FVec x = toFloat(rng.uniform(1000));
    DeviceVec<float> buf(*gpu, x);
    DeviceVec<float> out(*gpu, FVec(x.size(), 0.0f));
    // A world collective in flight, then the groups' on the same stream, in issue order.
    CommHandle pending = world.startAllGather(buf.get(), x.size(), CommDType::F32);
    within->allReduce(buf.get(), x.size(), CommDType::F32);
    across->startAllToAll(buf.get(), out.get(), x.size(), CommDType::F32).wait();
    pending.wait();
    EXPECT_EQ(out.host(), x);
    EXPECT_DOUBLE_EQ(within->sumDouble(1.5), 1.5);
    across->barrier();

    const CommStats st = world.takeStats();
    EXPECT_EQ(st[Collective::AllGather].calls, 1);
    EXPECT_EQ(st[Collective::AllReduce].calls, 1);
    EXPECT_EQ(st.alltoall.calls, 1);
    EXPECT_EQ(st.alltoall.bytes, static_cast<long long>(x.size() * 4));
    EXPECT_EQ(within->takeStats().totalBytes(), 0); // the world's stats, already taken
}

} // namespace
} // namespace zerolab
