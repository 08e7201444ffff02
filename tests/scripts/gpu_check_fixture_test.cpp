// A GoogleTest executable that fails on purpose, for scripts/gpu-check's dry run: it runs
// these tests under a ctest of its own (never the project's) to check that a failing
// test's assertion text reaches the summary and that the first failure is rerun. One
// test passes, one fails an assertion, one dies of a signal, as a CUDA fault would.
#include <gtest/gtest.h>

#include <csignal>

TEST(GpuCheckFixture, Passes) {
    EXPECT_EQ(1, 1);
}

TEST(GpuCheckFixture, ValuesDiffer) {
    const int computed = 2;
    const int expected = 3;
    EXPECT_EQ(computed, expected) << "layernorm dweight, element 17";
}

TEST(GpuCheckFixture, Crashes) {
    std::raise(SIGSEGV);
}
