// bf16 round-to-nearest-even at its edges (ties, carries into the exponent,
// overflow, NaN, subnormals), the bulk conversions, and the vector utilities
// (axpy, scale, zero, sum of squares, bf16 accumulation, in-place narrowing) used by
// clipping and accumulation.
#include "kernels/kernels.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace zerolab {
namespace {

std::uint16_t bitsOf(float f) {
    return bf16FromFloat(f).bits;
}

float fromBits(std::uint32_t u) {
    return std::bit_cast<float>(u);
}

TEST(Bf16, ExactValuesRoundTrip) {
    for (float f : {0.0f, -0.0f, 1.0f, -2.5f, 0.15625f, 65536.0f}) {
        EXPECT_EQ(floatFromBf16(bf16FromFloat(f)), f);
        EXPECT_EQ(std::signbit(floatFromBf16(bf16FromFloat(f))), std::signbit(f));
    }
    EXPECT_EQ(bitsOf(1.0f), 0x3f80);
    EXPECT_EQ(bitsOf(-2.0f), 0xc000);
}

TEST(Bf16, TiesRoundToEven) {
    // 1 + 2^-8 lies halfway between 1 (mantissa ...0, even) and 1 + 2^-7: down to 1.
    EXPECT_EQ(bitsOf(fromBits(0x3f808000)), 0x3f80);
    // 1 + 3*2^-8 lies halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): up.
    EXPECT_EQ(bitsOf(fromBits(0x3f818000)), 0x3f82);
    // Just above and below a tie go to the nearer neighbour.
    EXPECT_EQ(bitsOf(fromBits(0x3f808001)), 0x3f81);
    EXPECT_EQ(bitsOf(fromBits(0x3f807fff)), 0x3f80);
    // Negative ties behave the same on the magnitude.
    EXPECT_EQ(bitsOf(fromBits(0xbf808000)), 0xbf80);
    EXPECT_EQ(bitsOf(fromBits(0xbf818000)), 0xbf82);
}

TEST(Bf16, RoundingCarriesIntoTheExponent) {
    // The largest mantissa below 2 rounds up to exactly 2.
    EXPECT_EQ(bitsOf(fromBits(0x3fffffff)), 0x4000);
    EXPECT_EQ(floatFromBf16(bf16FromFloat(fromBits(0x3fffffff))), 2.0f);
}

TEST(Bf16, OverflowInfinityAndNan) {
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(bitsOf(inf), 0x7f80);
    EXPECT_EQ(bitsOf(-inf), 0xff80);
    // FLT_MAX is above the largest bf16 (0x7f7f) by more than half an ulp: +inf.
    EXPECT_EQ(bitsOf(std::numeric_limits<float>::max()), 0x7f80);
    // A NaN whose payload sits only in the low 16 bits must not truncate to inf.
    const float lowNan = fromBits(0x7f800001);
    ASSERT_TRUE(std::isnan(lowNan));
    EXPECT_TRUE(std::isnan(floatFromBf16(bf16FromFloat(lowNan))));
    EXPECT_TRUE(std::isnan(floatFromBf16(bf16FromFloat(-std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Bf16, Subnormals) {
    // The smallest fp32 subnormal is below half the smallest bf16 subnormal: +0.
    EXPECT_EQ(bitsOf(fromBits(0x00000001)), 0x0000);
    // The smallest bf16 subnormal (0x0001) survives the round trip.
    EXPECT_EQ(bitsOf(fromBits(0x00010000)), 0x0001);
    // A subnormal tie rounds to even: 0x00018000 -> 0x0002.
    EXPECT_EQ(bitsOf(fromBits(0x00018000)), 0x0002);
}

TEST(VectorOps, BulkConversionsMatchTheScalarOnes) {
    auto k = makeCpuKernels(2);
    const std::size_t n = 100003;
    test::Rng rng(31);
    const auto x = test::toFloat(rng.uniform(n, -1e4, 1e4));
    std::vector<Bf16> b(n, Bf16{0x7fc1});
    k->toBf16(b.data(), x.data(), n);
    auto back = test::poisoned(n);
    k->toFloat(back.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(b[i].bits, bf16FromFloat(x[i]).bits) << i;
        ASSERT_EQ(back[i], floatFromBf16(b[i])) << i;
        ASSERT_LE(std::abs(back[i] - x[i]), std::abs(x[i]) * (1.0f / 256)) << i; // half an ulp
    }
}

TEST(VectorOps, AxpyScaleZero) {
    for (int threads : {1, 2}) {
        auto k = makeCpuKernels(threads);
        const std::size_t n = 40000;
        test::Rng rng(32);
        const auto x = rng.uniform(n), y0 = rng.uniform(n);
        auto fy = test::toFloat(y0);
        const auto fx = test::toFloat(x);
        k->axpy(fy.data(), -0.5f, fx.data(), n);
        std::vector<double> want(n);
        for (std::size_t i = 0; i < n; ++i)
            want[i] = y0[i] - 0.5 * x[i];
        EXPECT_TRUE(test::closeTo(fy, want, 1e-6));
        k->scale(fy.data(), 4.0f, n);
        for (auto& w : want)
            w *= 4.0;
        EXPECT_TRUE(test::closeTo(fy, want, 1e-6));
        k->zero(fy.data(), n);
        EXPECT_TRUE(test::closeTo(fy, std::vector<double>(n, 0.0), 0.0));
        std::vector<Bf16> b(n, Bf16{0x3f80});
        k->zero(b.data(), n);
        for (auto v : b)
            ASSERT_EQ(v.bits, 0);
    }
}

TEST(VectorOps, SumSquaresInDouble) {
    for (int threads : {1, 2}) {
        auto k = makeCpuKernels(threads);
        const std::size_t n = 1 << 20;
        // 1 + n * (2^-12)^2: in fp32 the small terms would vanish next to the 1.
        std::vector<float> x(n, 1.0f / 4096);
        x[0] = 1.0f;
        const double want = 1.0 + (n - 1) * std::pow(2.0, -24);
        EXPECT_DOUBLE_EQ(k->sumSquares(x.data(), n), want);
        std::vector<Bf16> b(n);
        for (std::size_t i = 0; i < n; ++i)
            b[i] = bf16FromFloat(x[i]);
        EXPECT_DOUBLE_EQ(k->sumSquares(b.data(), n), want);
    }
}

TEST(VectorOps, Bf16AccumulationRoundsTheFp32Sum) {
    auto k = makeCpuKernels(2);
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100'003}}) {
        const auto a = test::Rng(41).uniform(n, -4, 4), b = test::Rng(42).uniform(n, -4, 4);
        std::vector<Bf16> dst(n), src16(n), dst2(n);
        std::vector<float> src32(n);
        for (std::size_t i = 0; i < n; ++i) {
            dst[i] = dst2[i] = bf16FromFloat(static_cast<float>(a[i]));
            src16[i] = bf16FromFloat(static_cast<float>(b[i]));
            src32[i] = static_cast<float>(b[i]);
        }
        const std::vector<Bf16> before = dst;
        k->accumulate(dst.data(), src16.data(), n);
        k->accumulate(dst2.data(), src32.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            const float base = floatFromBf16(before[i]);
            ASSERT_EQ(dst[i].bits, bitsOf(base + floatFromBf16(src16[i])))
                << "n " << n << " i " << i;
            ASSERT_EQ(dst2[i].bits, bitsOf(base + src32[i])) << "n " << n << " i " << i;
        }
    }
}

TEST(VectorOps, NarrowInPlaceEqualsAConversionIntoAnotherBuffer) {
    auto k = makeCpuKernels(2);
    // Around the sequential head (4096) and the doubling rounds, and one large odd size.
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{4095}, std::size_t{4096},
          std::size_t{4097}, std::size_t{8193}, std::size_t{(1u << 20) + 3}}) {
        const auto x = test::Rng(43).uniform(n, -1e3, 1e3);
        std::vector<float> buf(n);
        for (std::size_t i = 0; i < n; ++i)
            buf[i] = static_cast<float>(x[i]);
        std::vector<Bf16> want(n);
        k->toBf16(want.data(), buf.data(), n);
        k->narrowToBf16InPlace(buf.data(), n);
        const auto* got = reinterpret_cast<const Bf16*>(buf.data());
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i].bits, want[i].bits) << "n " << n << " i " << i;
    }
}

TEST(VectorOps, FillZeroAndNoDeviceMemory) {
    auto k = makeCpuKernels(1);
    std::vector<unsigned char> bytes(37, 0xab);
    k->fillZero(bytes.data() + 1, 35);
    EXPECT_EQ(bytes.front(), 0xab);
    EXPECT_EQ(bytes.back(), 0xab);
    for (std::size_t i = 1; i < 36; ++i)
        ASSERT_EQ(bytes[i], 0) << i;
    EXPECT_FALSE(k->deviceMemory().has_value()); // host memory: RSS says what is used
}

TEST(VectorOps, MemoryRoundTrip) {
    auto k = makeCpuKernels(1);
    std::vector<float> host = {1.0f, 2.0f, 3.0f}, back(3, 0.0f);
    auto* dev = static_cast<float*>(k->allocate(3 * sizeof(float)));
    ASSERT_NE(dev, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(dev) % 64, 0u);
    k->copyToDevice(dev, host.data(), 3 * sizeof(float));
    k->copyOnDevice(dev, dev + 1, 2 * sizeof(float)); // overlapping: {2, 3, 3}
    k->synchronize();
    k->copyToHost(back.data(), dev, 3 * sizeof(float));
    k->release(dev);
    EXPECT_EQ(back, (std::vector<float>{2.0f, 3.0f, 3.0f}));
}

TEST(VectorOps, RejectsZeroThreads) {
    EXPECT_THROW(makeCpuKernels(0), KernelError);
}

} // namespace
} // namespace zerolab
