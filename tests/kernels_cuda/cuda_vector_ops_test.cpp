// The CUDA optimizer, conversion and vector kernels against the CPU kernels:
// AdamW / Adam (fp32 and mixed precision with bf16 or fp32 gradients) over
// several steps, bf16 conversions bit for bit (ties, NaN, infinities), and the
// utilities (axpy, scale, zero, sum of squares, device copies, bf16 accumulation,
// in-place narrowing, device memory).
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>

namespace zerolab {
namespace {

using test::closeTo;
using test::DeviceVec;
using test::poisoned;
using test::Rng;
using test::sameBits;
using test::toDouble;
using test::toFloat;
using test::widen;
using FVec = std::vector<float>;

// One fused expression per element on both sides; FMA contraction on the GPU moves
// the last bit or two.
constexpr double kAdamTol = 1e-5;
// A master weight that differs in its last fp32 bits can round to the neighbouring bf16:
// one bf16 ulp is at most 2^-7 relative; twice that as margin.
constexpr double kBf16Tol = 1.0 / 64;
// axpy: the GPU contracts y + alpha*x into one FMA, the generic x86-64 CPU build does not.
constexpr double kAxpyTol = 1e-6;
// Odd, and above one grid of kMaxBlocks * 256 threads: the grid-stride loops wrap.
constexpr std::size_t kSmallN = 1'100'003;

class CudaVectorOpsTest : public test::CudaVsCpuTest {};

// The element-wise ops at one length each: kSmallN, and the real size of the largest GPT-2
// unit (wte, 38.6M elements: what the optimizer and the conversions run over in one call).
struct VectorSize {
    const char* name;
    std::size_t n;
};

void PrintTo(const VectorSize& v, std::ostream* os) {
    *os << v.name;
}

class CudaVectorOpsSizeTest : public test::CudaVsCpuTest,
                              public ::testing::WithParamInterface<VectorSize> {
protected:
    CudaVectorOpsSizeTest() {
        if (realSize())
            cpuThreads = test::kRealSizeThreads;
    }
    bool realSize() const { return GetParam().n > kSmallN; }
    // Optimizer steps: fewer at the real size, whose random inputs take the time.
    int steps(int small) const { return realSize() ? 2 : small; }
};

AdamParams stepParams(int t, bool decoupled) {
    AdamParams hp;
    hp.lr = 3e-3f;
    hp.weightDecay = 0.05f;
    hp.step = t;
    hp.gradScale = 0.25f;
    hp.decoupled = decoupled;
    return hp;
}

TEST_P(CudaVectorOpsSizeTest, AdamwFp32OverSteps) {
    const std::size_t kN = GetParam().n;
    for (bool decoupled : {true, false}) {
        SCOPED_TRACE(decoupled ? "AdamW" : "Adam");
        Rng rng(201);
        FVec p = toFloat(rng.uniform(kN)), m(kN, 0.0f), v(kN, 0.0f);
        DeviceVec<float> gP(*gpu, p), gM(*gpu, m), gV(*gpu, v);
        for (int t = 1; t <= steps(4); ++t) {
            const FVec g = toFloat(rng.uniform(kN, -2, 2));
            DeviceVec<float> gG(*gpu, g);
            cpu->adamw(p.data(), g.data(), m.data(), v.data(), kN, stepParams(t, decoupled));
            gpu->adamw(gP.get(), gG.get(), gM.get(), gV.get(), kN, stepParams(t, decoupled));
        }
        EXPECT_TRUE(closeTo(gP.host(), toDouble(p), kAdamTol));
        EXPECT_TRUE(closeTo(gM.host(), toDouble(m), kAdamTol));
        EXPECT_TRUE(closeTo(gV.host(), toDouble(v), kAdamTol));
    }
}

TEST_P(CudaVectorOpsSizeTest, AdamwMixedWithBf16AndFp32Grads) {
    const std::size_t kN = GetParam().n;
    for (bool bf16Grads : {true, false}) {
        SCOPED_TRACE(bf16Grads ? "bf16 grads" : "fp32 grads");
        Rng rng(202);
        FVec master = toFloat(rng.uniform(kN)), m(kN, 0.0f), v(kN, 0.0f);
        std::vector<Bf16> out(kN, Bf16{0x7fc0});
        DeviceVec<float> gMaster(*gpu, master), gM(*gpu, m), gV(*gpu, v);
        DeviceVec<Bf16> gOut(*gpu, out);
        for (int t = 1; t <= steps(3); ++t) {
            const FVec g = toFloat(rng.uniform(kN, -2, 2));
            std::vector<Bf16> g16(kN);
            for (std::size_t i = 0; i < kN; ++i)
                g16[i] = bf16FromFloat(g[i]);
            const AdamParams hp = stepParams(t, true);
            if (bf16Grads) {
                DeviceVec<Bf16> gG(*gpu, g16);
                cpu->adamwMixed(master.data(), out.data(), g16.data(), m.data(), v.data(), kN, hp);
                gpu->adamwMixed(gMaster.get(), gOut.get(), gG.get(), gM.get(), gV.get(), kN, hp);
            } else {
                DeviceVec<float> gG(*gpu, g);
                cpu->adamwMixed(master.data(), out.data(), g.data(), m.data(), v.data(), kN, hp);
                gpu->adamwMixed(gMaster.get(), gOut.get(), gG.get(), gM.get(), gV.get(), kN, hp);
            }
        }
        EXPECT_TRUE(closeTo(gMaster.host(), toDouble(master), kAdamTol));
        EXPECT_TRUE(closeTo(gM.host(), toDouble(m), kAdamTol));
        EXPECT_TRUE(closeTo(gV.host(), toDouble(v), kAdamTol));
        EXPECT_TRUE(closeTo(widen(gOut.host()), toDouble(widen(out)), kBf16Tol));
    }
}

TEST_F(CudaVectorOpsTest, AdamRejectsStepZero) {
    DeviceVec<float> buf(*gpu, FVec(4, 0.0f));
    AdamParams hp;
    hp.step = 0;
    EXPECT_THROW(gpu->adamw(buf.get(), buf.get(), buf.get(), buf.get(), 4, hp), KernelError);
}

TEST_P(CudaVectorOpsSizeTest, Bf16ConversionsMatchBitForBit) {
    const std::size_t kN = GetParam().n;
    Rng rng(203);
    FVec x = toFloat(rng.uniform(kN, -1e4, 1e4));
    // Edge values: ties to even, a carry into the exponent, overflow, infinities, NaNs
    // (one with its payload only in the low bits), subnormals, signed zeros.
    const std::uint32_t edges[] = {0x3f808000u, 0x3f818000u, 0xbf808000u, 0x3fffffffu, 0x7f7fffffu,
                                   0x7f800000u, 0xff800000u, 0x7f800001u, 0x7fc00000u, 0x00000001u,
                                   0x80400000u, 0x00000000u, 0x80000000u};
    for (std::size_t i = 0; i < std::size(edges); ++i)
        x[i * 7] = std::bit_cast<float>(edges[i]);
    std::vector<Bf16> want(kN);
    cpu->toBf16(want.data(), x.data(), kN);
    DeviceVec<float> gX(*gpu, x);
    DeviceVec<Bf16> gY(*gpu, std::vector<Bf16>(kN, Bf16{0x7fc0}));
    gpu->toBf16(gY.get(), gX.get(), kN);
    const auto got = gY.host();
    EXPECT_TRUE(sameBits(got, want));

    DeviceVec<float> gBack(*gpu, poisoned(kN));
    gpu->toFloat(gBack.get(), gY.get(), kN);
    FVec wantBack(kN);
    cpu->toFloat(wantBack.data(), want.data(), kN);
    const FVec back = gBack.host();
    ASSERT_EQ(back.size(), wantBack.size());
    EXPECT_EQ(std::memcmp(back.data(), wantBack.data(), kN * sizeof(float)), 0);
}

TEST_P(CudaVectorOpsSizeTest, AxpyScaleZero) {
    const std::size_t kN = GetParam().n;
    Rng rng(204);
    FVec y = toFloat(rng.uniform(kN)), x = toFloat(rng.uniform(kN));
    DeviceVec<float> gY(*gpu, y), gX(*gpu, x);
    cpu->axpy(y.data(), -0.75f, x.data(), kN);
    gpu->axpy(gY.get(), -0.75f, gX.get(), kN);
    EXPECT_TRUE(closeTo(gY.host(), toDouble(y), kAxpyTol));
    // scale is one rounded product on both sides: exact, given the same input.
    const FVec before = gY.host();
    FVec scaled = before;
    cpu->scale(scaled.data(), 1.5f, kN);
    gpu->scale(gY.get(), 1.5f, kN);
    EXPECT_TRUE(closeTo(gY.host(), toDouble(scaled), 0.0));
    gpu->zero(gY.get(), kN);
    for (float f : gY.host())
        ASSERT_EQ(std::bit_cast<std::uint32_t>(f), 0u);
    DeviceVec<Bf16> g16(*gpu, std::vector<Bf16>(kN, Bf16{0x3f80}));
    gpu->zero(g16.get(), kN);
    for (Bf16 b : g16.host())
        ASSERT_EQ(b.bits, 0u);
}

TEST_P(CudaVectorOpsSizeTest, SumSquaresInDouble) {
    const std::size_t kN = GetParam().n;
    Rng rng(205);
    const FVec x = toFloat(rng.uniform(kN, -3, 3));
    std::vector<Bf16> x16(kN);
    for (std::size_t i = 0; i < kN; ++i)
        x16[i] = bf16FromFloat(x[i]);
    DeviceVec<float> gX(*gpu, x);
    DeviceVec<Bf16> gX16(*gpu, x16);
    // Double accumulation on both sides: only the order of the additions differs.
    const double want = cpu->sumSquares(x.data(), kN), want16 = cpu->sumSquares(x16.data(), kN);
    EXPECT_NEAR(gpu->sumSquares(gX.get(), kN), want, want * 1e-12);
    EXPECT_NEAR(gpu->sumSquares(gX16.get(), kN), want16, want16 * 1e-12);
    // Deterministic: the same input gives the same bits.
    EXPECT_EQ(gpu->sumSquares(gX.get(), kN), gpu->sumSquares(gX.get(), kN));
    EXPECT_EQ(gpu->sumSquares(gX.get(), 0), 0.0);
    EXPECT_EQ(gpu->sumSquares(gX.get(), 1), static_cast<double>(x[0]) * x[0]);
}

TEST_P(CudaVectorOpsSizeTest, Bf16AccumulationMatchesBitForBit) {
    const std::size_t kN = GetParam().n;
    Rng rng(207);
    const FVec a = toFloat(rng.uniform(kN, -4, 4)), b = toFloat(rng.uniform(kN, -4, 4));
    std::vector<Bf16> dst(kN), src16(kN);
    for (std::size_t i = 0; i < kN; ++i) {
        dst[i] = bf16FromFloat(a[i]);
        src16[i] = bf16FromFloat(b[i]);
    }
    std::vector<Bf16> want16 = dst, want32 = dst;
    cpu->accumulate(want16.data(), src16.data(), kN);
    cpu->accumulate(want32.data(), b.data(), kN);
    DeviceVec<Bf16> g16(*gpu, dst), g32(*gpu, dst), gSrc16(*gpu, src16);
    DeviceVec<float> gSrc32(*gpu, b);
    gpu->accumulate(g16.get(), gSrc16.get(), kN);
    gpu->accumulate(g32.get(), gSrc32.get(), kN);
    EXPECT_TRUE(sameBits(g16.host(), want16));
    EXPECT_TRUE(sameBits(g32.host(), want32));
}

TEST_P(CudaVectorOpsSizeTest, NarrowInPlaceMatchesBitForBit) {
    const std::size_t kN = GetParam().n;
    // Inside the one-block head (1024), just past it, and over many doubling rounds.
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1025}, kN}) {
        Rng rng(208);
        const FVec x = toFloat(rng.uniform(n, -1e3, 1e3));
        std::vector<Bf16> want(n);
        cpu->toBf16(want.data(), x.data(), n);
        DeviceVec<float> g(*gpu, x);
        gpu->narrowToBf16InPlace(g.get(), n);
        const FVec raw = g.host();
        std::vector<Bf16> got(n);
        std::memcpy(got.data(), raw.data(), n * sizeof(Bf16));
        EXPECT_TRUE(sameBits(got, want)) << "n " << n;
    }
}

TEST_F(CudaVectorOpsTest, FillZeroAndDeviceMemory) {
    DeviceVec<float> g(*gpu, poisoned(1000));
    gpu->fillZero(g.get() + 1, 998 * sizeof(float));
    const FVec h = g.host();
    EXPECT_TRUE(std::isnan(h.front()) && std::isnan(h.back()));
    for (std::size_t i = 1; i < 999; ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(h[i]), 0u) << i;
    const auto mem = gpu->deviceMemory();
    ASSERT_TRUE(mem.has_value());
    EXPECT_GT(mem->used, 0);
    EXPECT_GE(mem->total, mem->used);
}

TEST_F(CudaVectorOpsTest, CopiesRoundTrip) {
    Rng rng(206);
    const FVec x = toFloat(rng.uniform(1000));
    DeviceVec<float> a(*gpu, x), b(*gpu, poisoned(1000));
    gpu->copyOnDevice(b.get(), a.get(), 1000 * sizeof(float));
    gpu->synchronize();
    EXPECT_TRUE(closeTo(b.host(), toDouble(x), 0.0));
    EXPECT_EQ(gpu->name(), "cuda");
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaVectorOpsSizeTest,
                         ::testing::Values(VectorSize{"n1100003", kSmallN}),
                         [](const auto& info) { return std::string(info.param.name); });
INSTANTIATE_TEST_SUITE_P(RealSize, CudaVectorOpsSizeTest,
                         ::testing::Values(VectorSize{"gpt2_124m_wte", test::RealSizes::kGpt2Wte}),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
} // namespace zerolab
