// Choosing OpenBLAS's kernel family (kernels/cpu/blas_coretype.h): the decision for CPUs
// and OpenBLAS choices made up here, and this machine's.
#include "kernels/cpu/blas_coretype.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

constexpr CpuVectorIsa kSse{false, false}, kAvx2{true, false}, kAvx512{true, true};

TEST(BlasCoreType, AWeakerChoiceIsRaisedToTheBestFamilyTheCpuRuns) {
    // OpenBLAS 0.3.21 on Sapphire/Emerald Rapids (Prescott) and on Zen 4 (Haswell).
    EXPECT_EQ(betterBlasCoreType("Prescott", kAvx512), "SkylakeX");
    EXPECT_EQ(betterBlasCoreType("Haswell", kAvx512), "SkylakeX");
    EXPECT_EQ(betterBlasCoreType("Zen", kAvx512), "SkylakeX");
    EXPECT_EQ(betterBlasCoreType("Nehalem", kAvx2), "Haswell");
    EXPECT_EQ(betterBlasCoreType("Sandybridge", kAvx2), "Haswell");
    EXPECT_EQ(betterBlasCoreType("prescott", kAvx2), "Haswell") << "names compare without case";
}

TEST(BlasCoreType, AChoiceAsGoodAsTheCpuOrAnUnknownNameIsKept) {
    EXPECT_EQ(betterBlasCoreType("SkylakeX", kAvx512), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("Cooperlake", kAvx512), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("Haswell", kAvx2), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("Zen", kAvx2), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("Prescott", kSse), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("SomeFutureCore", kAvx512), std::nullopt);
    EXPECT_EQ(betterBlasCoreType("", kAvx512), std::nullopt);
}

TEST(BlasCoreType, ThisProcessNamesTheKernelsOpenBlasLoaded) {
    const std::string name = blasCoreName();
    EXPECT_FALSE(name.empty());
    const CpuVectorIsa isa = thisCpuIsa();
    EXPECT_TRUE(!isa.avx512 || isa.avx2_fma) << "an AVX-512 CPU without AVX2 and FMA";
}

} // namespace
} // namespace zerolab
