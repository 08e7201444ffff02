// zerolab-train runs OpenBLAS's best kernel family for this CPU (kernels/cpu/blas_coretype.h)
// and names it in the run's events.
#include "kernels/cpu/blas_coretype.h"
#include "tests/engine/engine_runs.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace zerolab {
namespace {

TEST(BlasKernels, TrainRunsTheBestFamilyForThisCpuAndNamesIt) {
    // This process loaded OpenBLAS under the same environment: its choice, raised where
    // zerolab-train restarts itself with a better one.
    std::string expected = blasCoreName();
    const char* set = std::getenv("OPENBLAS_CORETYPE");
    if (set == nullptr || *set == '\0')
        expected = betterBlasCoreType(expected, thisCpuIsa()).value_or(expected);
    const test::RunOutput got = test::train(1, 0, 1);
    bool named = false;
    std::string description;
    for (const std::string& e : got.events)
        if (e.find("rank 0 runs on") != std::string::npos) {
            description = e;
            named = e.find("OpenBLAS " + expected + " kernels") != std::string::npos;
        }
    EXPECT_TRUE(named) << "expected OpenBLAS " << expected << " kernels in: " << description;
}

} // namespace
} // namespace zerolab
