// ZeRO++'s communicator additions: the all-to-all and sub-communicator program
// (zeropp_comm_check) under real mpiruns of 2, 3 and 4 ranks, and block quantization:
// the payload layout byte for byte and the error bound of each format.
#include "tests/comm/rank_checks.h"

#include "runtime/comm/quantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace zerolab {
namespace {

class ZeroPPComm : public ::testing::TestWithParam<int> {};

TEST_P(ZeroPPComm, AllToAllAndGroupsMatchTheReference) {
    test::expectEveryRankOk("zeropp_comm_check", GetParam());
}

INSTANTIATE_TEST_SUITE_P(Ranks, ZeroPPComm, ::testing::Values(2, 3, 4));

TEST(BlockQuantize, LayoutIsScalesThenPackedIntegers) {
    // Blocks of 3, the last one shorter; scales are powers of two, so every q is exact.
    const float x[5] = {0.875f, -0.25f, 0.125f, 1.75f, -0.5f};
    const BlockFormat f{4, 3};
    ASSERT_EQ(f.payloadBytes(5), 2 * 4 + 3);
    std::vector<std::uint8_t> p(static_cast<std::size_t>(f.payloadBytes(5)), 0xEE);
    quantizeBlocks(x, 5, f, p.data());
    float s0 = 0, s1 = 0;
    std::memcpy(&s0, p.data(), 4);
    std::memcpy(&s1, p.data() + 4, 4);
    EXPECT_EQ(s0, 0.125f); // 0.875 / 7
    EXPECT_EQ(s1, 0.25f);  // 1.75 / 7
    // q = 7, -2, 1 | 7, -2, low nibble first.
    EXPECT_EQ(p[8], 0xE7);
    EXPECT_EQ(p[9], 0x71);
    EXPECT_EQ(p[10], 0x0E);
    // 8 bits: one byte per value after the scales.
    const BlockFormat g{8, 4};
    std::vector<std::uint8_t> q(static_cast<std::size_t>(g.payloadBytes(5)));
    ASSERT_EQ(q.size(), 2u * 4 + 5);
    quantizeBlocks(x, 5, g, q.data());
    EXPECT_EQ(static_cast<std::int8_t>(q[8 + 3]), 127);  // the block's max
    EXPECT_EQ(static_cast<std::int8_t>(q[8 + 0]), 64);   // 63.5, to even
    EXPECT_EQ(static_cast<std::int8_t>(q[8 + 4]), -127); // alone in its block
    float back[5];
    dequantizeBlocks(q.data(), 5, g, back);
    EXPECT_NEAR(back[0], 0.875f, 1.75f / 127 / 2);
    EXPECT_NEAR(back[4], -0.5f, 1e-6);
}

TEST(BlockQuantize, ErrorWithinHalfAStepOfEachBlock) {
    std::mt19937 rng(7);
    std::normal_distribution<float> d(0.0f, 0.02f);
    for (const BlockFormat f :
         {BlockFormat{8, 8000}, BlockFormat{8, 64}, BlockFormat{4, 768}, BlockFormat{4, 5}}) {
        const std::int64_t n = 20011;
        std::vector<float> x(n), y(n, 1.0f), z(n, 1.0f);
        for (auto& v : x)
            v = d(rng);
        x[17] = 0.5f; // an outlier sets its block's scale
        std::vector<std::uint8_t> p(static_cast<std::size_t>(f.payloadBytes(n)));
        quantizeBlocks(x.data(), n, f, p.data());
        dequantizeBlocks(p.data(), n, f, y.data());
        dequantizeAddBlocks(p.data(), n, f, z.data());
        for (std::int64_t b = 0; b < f.blocks(n); ++b) {
            float amax = 0;
            const std::int64_t end = std::min(n, (b + 1) * f.block);
            for (std::int64_t i = b * f.block; i < end; ++i)
                amax = std::max(amax, std::fabs(x[i]));
            const float bound = amax / f.qmax() / 2 * (1 + 1e-5f);
            for (std::int64_t i = b * f.block; i < end; ++i) {
                ASSERT_LE(std::fabs(y[i] - x[i]), bound)
                    << f.bits << " bits, block " << f.block << ", element " << i;
                ASSERT_FLOAT_EQ(z[i], 1.0f + y[i]);
            }
        }
    }
}

// The format's definition, element by element (storage/block_format.h): what the
// vectorised loops of quantize.cpp must reproduce byte for byte.
template <typename In>
std::vector<std::uint8_t> scalarQuantize(const In* x, std::int64_t n, const BlockFormat& f) {
    std::vector<std::uint8_t> p(static_cast<std::size_t>(f.payloadBytes(n)), 0);
    std::uint8_t* q = p.data() + f.blocks(n) * 4;
    const float qmax = static_cast<float>(f.qmax());
    for (std::int64_t b = 0; b < f.blocks(n); ++b) {
        const std::int64_t end = std::min(n, (b + 1) * f.block);
        auto value = [&](std::int64_t i) {
            if constexpr (sizeof(In) == 2)
                return floatFromBf16(x[i]);
            else
                return x[i];
        };
        float amax = 0;
        for (std::int64_t i = b * f.block; i < end; ++i)
            if (!std::isnan(value(i)))
                amax = std::max(amax, std::fabs(value(i)));
        const float scale = amax / qmax;
        std::memcpy(p.data() + b * 4, &scale, 4);
        const float inv = scale > 0 ? 1.0f / scale : 0.0f;
        for (std::int64_t i = b * f.block; i < end; ++i) {
            const float t = value(i) * inv;
            const int v =
                std::isnan(t) ? 0 : static_cast<int>(std::clamp(std::nearbyint(t), -qmax, qmax));
            if (f.bits == 8)
                q[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
            else
                q[i / 2] |= static_cast<std::uint8_t>((v & 0xF) << ((i % 2) * 4));
        }
    }
    return p;
}

TEST(BlockQuantize, VectorisedLoopsMatchTheFormatsDefinitionByteForByte) {
    std::mt19937 rng(11);
    std::normal_distribution<float> d(0.0f, 0.02f);
    const std::int64_t n = 20011; // odd: a last half byte at 4 bits
    std::vector<float> x(n);
    for (auto& v : x)
        v = d(rng);
    x[3] = 0.5f;
    x[5000] = -0.0f;
    x[6001] = std::nanf("");                          // ignored by the scale, sent as 0
    x[9001] = std::numeric_limits<float>::infinity(); // its block's scale is inf
    std::vector<Bf16> h(n);
    for (std::int64_t i = 0; i < n; ++i)
        h[i] = bf16FromFloat(x[i]);
    // Blocks longer than the loops' stack chunk, odd blocks whose 4-bit chunks start on a
    // high nibble, and one block of the whole range.
    for (const BlockFormat f : {BlockFormat{8, 8000}, BlockFormat{8, 7}, BlockFormat{4, 256},
                                BlockFormat{4, 4097}, BlockFormat{4, 5}, BlockFormat{8, n}}) {
        std::vector<std::uint8_t> p(static_cast<std::size_t>(f.payloadBytes(n)), 0xAB);
        quantizeBlocks(x.data(), n, f, p.data());
        EXPECT_EQ(p, scalarQuantize(x.data(), n, f)) << f.bits << " bits, block " << f.block;
        std::fill(p.begin(), p.end(), 0xCD);
        quantizeBlocks(h.data(), n, f, p.data());
        const std::vector<std::uint8_t> ref = scalarQuantize(h.data(), n, f);
        EXPECT_EQ(p, ref) << "bf16, " << f.bits << " bits, block " << f.block;
        // Back: each value is its integer times its block's scale (bf16: rounded once).
        std::vector<float> y(n), z(n, 0.25f);
        std::vector<Bf16> yh(n);
        dequantizeBlocks(ref.data(), n, f, y.data());
        dequantizeBlocks(ref.data(), n, f, yh.data());
        dequantizeAddBlocks(ref.data(), n, f, z.data());
        const std::uint8_t* q = ref.data() + f.blocks(n) * 4;
        for (std::int64_t i = 0; i < n; ++i) {
            float scale = 0;
            std::memcpy(&scale, ref.data() + (i / f.block) * 4, 4);
            const int v = f.bits == 8 ? static_cast<std::int8_t>(q[i])
                                      : ((q[i / 2] >> ((i % 2) * 4)) & 0xF) -
                                            ((q[i / 2] >> ((i % 2) * 4)) & 0x8) * 2;
            const float want = static_cast<float>(v) * scale;
            ASSERT_TRUE(std::memcmp(&y[i], &want, 4) == 0 || (std::isnan(want) && std::isnan(y[i])))
                << f.bits << " bits, block " << f.block << ", element " << i;
            ASSERT_EQ(yh[i].bits, bf16FromFloat(want).bits) << "element " << i;
            const float sum = 0.25f + want;
            ASSERT_TRUE(std::memcmp(&z[i], &sum, 4) == 0 || (std::isnan(sum) && std::isnan(z[i])))
                << "element " << i;
        }
    }
}

TEST(BlockQuantize, QwzBlocksFollowDeepSpeedsGroupRule) {
    // CUDAQuantizer: groups = ceil(n / 8000), raised until 8 * groups divides n, doubled
    // while n / groups > 8000.
    EXPECT_EQ(qwzBlockElems(768 * 768), 6144); // 96 groups
    EXPECT_EQ(qwzBlockElems(8000), 8000);
    EXPECT_EQ(qwzBlockElems(1536), 1536);
    EXPECT_EQ(qwzBlockElems(16), 16);
    EXPECT_EQ(qwzBlockElems(20011), 8000); // not a multiple of 8: blocks of the target
    EXPECT_EQ(qwzBlockElems(7), 7);
}

} // namespace
} // namespace zerolab
