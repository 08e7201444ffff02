// The NCCL communicator on several ranks, one GPU each: nccl_zeropp_check (ZeRO++'s
// sub-communicators, all-to-all and traffic by link class against the MPI communicator's
// references) under real mpiruns of 2 and 4 ranks. Skips, naming the reason, where the
// host has fewer GPUs than ranks (NCCL refuses two ranks on one device).
#include "tests/support/process.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace zerolab {
namespace {

class NcclRanks : public ::testing::TestWithParam<int> {};

TEST_P(NcclRanks, ZeroPPAdditionsMatchTheReference) {
    const int n = GetParam();
    int devices = 0;
    const cudaError_t rc = cudaGetDeviceCount(&devices);
    if (rc != cudaSuccess)
        GTEST_SKIP() << "no CUDA device: " << cudaGetErrorString(rc);
    if (devices < n)
        GTEST_SKIP() << n << " ranks need " << n
                     << " GPUs (NCCL takes one per rank); this host has " << devices;
    const std::string prog = std::string(ZEROLAB_BIN_DIR) + "/../tests/nccl_zeropp_check";
    const auto r = test::runProcess(test::mpirun(n, prog, {}));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    for (int rank = 0; rank < n; ++rank)
        EXPECT_NE(r.out.find("rank " + std::to_string(rank) + ": ok"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Ranks, NcclRanks, ::testing::Values(2, 4));

} // namespace
} // namespace zerolab
