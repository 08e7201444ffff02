// The NCCL communicator on one rank (MPI singleton, GPU 0): the collectives keep
// a world-of-one's data as it is (sum and average of one rank), in place at the
// offsets the Communicator contract names, in fp32 and bf16, blocking and
// non-blocking, each counted and timed once; host helpers go over MPI.
#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_nccl.h"
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(comm.localRank(), 0);
    EXPECT_EQ(comm.device(), 0);
    EXPECT_FALSE(comm.host().empty());
}

} // namespace
} // namespace zerolab
