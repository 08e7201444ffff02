// A GoogleTest executable that fails on purpose, for scripts/gpu-check's dry run: it runs
// these tests under a ctest of its own (never the project's) to check that a failing
// test's assertion text reaches the summary and that the first failure is rerun. One
// test passes, a parameterised one fails an assertion (gtest_discover_tests names such a
// test "Suite/Test.Name/0  # GetParam() = 3", as it names the CUDA kernel tests), one
// dies of a signal, as a CUDA fault would.
#include <gtest/gtest.h>

#include <csignal>

TEST(GpuCheckFixture, Passes) {
    EXPECT_EQ(1, 1);
}

class GpuCheckFixtureShapes : public ::testing::TestWithParam<int> {};

TEST_P(GpuCheckFixtureShapes, ValuesDiffer) {
    const int computed = 2;
    EXPECT_EQ(computed, GetParam()) << "layernorm dweight, element 17";
}

INSTANTIATE_TEST_SUITE_P(Shapes, GpuCheckFixtureShapes, ::testing::Values(3));

TEST(GpuCheckFixture, Crashes) {
    std::raise(SIGSEGV);
}
