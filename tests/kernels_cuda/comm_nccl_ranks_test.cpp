// The NCCL communicator on several ranks, one GPU each: nccl_zeropp_check (ZeRO++'s
// sub-communicators, all-to-all and traffic by link class against the MPI communicator's
// references) under real mpiruns of 2 and 4 ranks. Skips, naming the reason, where the
// host has fewer GPUs than ranks (NCCL refuses two ranks on one device).
#include "tests/comm/rank_checks.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

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
    test::expectEveryRankOk("nccl_zeropp_check", n);
}

INSTANTIATE_TEST_SUITE_P(Ranks, NcclRanks, ::testing::Values(2, 4));

} // namespace
} // namespace zerolab
