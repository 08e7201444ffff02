// The rotary position embedding: the host functions of kernels/rope.h (inverse frequencies
// with and without Llama 3.1 scaling, checked against values worked by hand from HF's
// formula; the cos/sin table) and Kernels::ropeForward/Backward on the CPU: HF's
// rotate_half layout on a hand-computed hs = 4 case, a naive double reference (angles
// straight from inv_freq, not through the table) on packed rows with 1 and 2 threads,
// norms preserved, backward = the transpose (finite differences) = the exact inverse, and
// bad shapes refused.
#include "kernels/kernels.h"
#include "kernels/rope.h"
#include "tests/kernels/gradcheck.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

namespace zerolab {
namespace {

using test::closeTo;
using test::dot;
using test::expectGradient;
using test::Rng;
using test::toDouble;
using test::toFloat;
using Vec = std::vector<double>;

constexpr double kFp32Tol = 1e-5;

// x_rot[i] = x[i] cos - x[i+j] sin, x_rot[i+j] = x[i+j] cos + x[i] sin, angle t * f_i, on
// every head of every row (b*T+t) of rowStride values; other values untouched.
void ropeRef(Vec& x, const Vec& invFreq, int B, int T, int H, int hs, int rowStride) {
    const int j = hs / 2;
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t)
            for (int h = 0; h < H; ++h) {
                double* v = x.data() + (static_cast<std::size_t>(b) * T + t) * rowStride + h * hs;
                for (int i = 0; i < j; ++i) {
                    const double c = std::cos(t * invFreq[i]), s = std::sin(t * invFreq[i]);
                    const double x1 = v[i], x2 = v[i + j];
                    v[i] = x1 * c - x2 * s;
                    v[i + j] = x2 * c + x1 * s;
                }
            }
}

// The cos/sin table on the "device" (host memory for the CPU kernels).
std::vector<float> tableFor(int T, int hs, double theta) {
    return ropeTable(T, ropeInvFreq(hs, theta));
}

TEST(RopeInvFreq, DefaultIsThetaToTheMinusTwoIOverHs) {
    const Vec f = ropeInvFreq(8, 10000.0);
    ASSERT_EQ(f.size(), 4u);
    // 10000^(-0/8), 10000^(-2/8), ... = 1, 0.1, 0.01, 0.001.
    EXPECT_DOUBLE_EQ(f[0], 1.0);
    EXPECT_NEAR(f[1], 0.1, 1e-15);
    EXPECT_NEAR(f[2], 0.01, 1e-16);
    EXPECT_NEAR(f[3], 0.001, 1e-17);
}

// HF's _compute_llama3_parameters by hand on hs = 8, theta = 10000, factor 8,
// low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 64:
// low_freq_wavelen = 64 / 1 = 64, high_freq_wavelen = 64 / 4 = 16.
//   f0 = 1:     wavelen 2 pi = 6.28 < 16, high frequency: unchanged, 1.
//   f1 = 0.1:   wavelen 62.83, between 16 and 64: smooth = (64 / 62.83 - 1) / (4 - 1)
//               = (1.0185916 - 1) / 3 = 0.0061972119; f = (1 - smooth) 0.1 / 8 + smooth 0.1
//               = 0.0125 + 0.0875 smooth = 0.0130422560.
//   f2 = 0.01:  wavelen 628.3 > 64, low frequency: 0.01 / 8 = 0.00125.
//   f3 = 0.001: wavelen 6283 > 64: 0.001 / 8 = 0.000125.
TEST(RopeInvFreq, Llama3ScalingByHand) {
    const RopeScaling s{8.0, 1.0, 4.0, 64.0};
    const Vec f = ropeInvFreq(8, 10000.0, s);
    ASSERT_EQ(f.size(), 4u);
    EXPECT_DOUBLE_EQ(f[0], 1.0);
    EXPECT_NEAR(f[1], 0.0130422560438, 1e-12);
    EXPECT_NEAR(f[2], 0.00125, 1e-16);
    EXPECT_NEAR(f[3], 0.000125, 1e-17);
}

// Llama 3.1 8B's config.json: head_dim 128, rope_theta 500000, rope_scaling {factor 8,
// low 1, high 4, original 8192}: wavelengths under 8192/4 = 2048 keep their frequency,
// those over 8192 are divided by 8, those between are blended.
TEST(RopeInvFreq, Llama31EightBBands) {
    const RopeScaling s{8.0, 1.0, 4.0, 8192.0};
    const Vec plain = ropeInvFreq(128, 500000.0), scaled = ropeInvFreq(128, 500000.0, s);
    ASSERT_EQ(scaled.size(), 64u);
    int high = 0, mid = 0, low = 0;
    for (int i = 0; i < 64; ++i) {
        const double wavelen = 2 * std::numbers::pi / plain[i];
        if (wavelen < 2048) {
            EXPECT_EQ(scaled[i], plain[i]) << i;
            ++high;
        } else if (wavelen > 8192) {
            EXPECT_NEAR(scaled[i], plain[i] / 8, 1e-15 * plain[i]) << i;
            ++low;
        } else {
            EXPECT_LT(scaled[i], plain[i]) << i;
            EXPECT_GT(scaled[i], plain[i] / 8) << i;
            ++mid;
        }
    }
    // All three bands are present, so the test exercises each branch.
    EXPECT_GT(high, 0);
    EXPECT_GT(mid, 0);
    EXPECT_GT(low, 0);
}

TEST(RopeInvFreq, RefusesBadArguments) {
    EXPECT_THROW(ropeInvFreq(5, 10000.0), KernelError);
    EXPECT_THROW(ropeInvFreq(0, 10000.0), KernelError);
    EXPECT_THROW(ropeInvFreq(8, 0.0), KernelError);
    EXPECT_THROW(ropeInvFreq(8, 1e4, RopeScaling{8.0, 4.0, 4.0, 8192.0}), KernelError);
    EXPECT_THROW(ropeInvFreq(8, 1e4, RopeScaling{0.0, 1.0, 4.0, 8192.0}), KernelError);
    EXPECT_THROW(ropeInvFreq(8, 1e4, RopeScaling{8.0, 1.0, 4.0, 0.0}), KernelError);
}

TEST(RopeTable, SizeAndEntries) {
    const int T = 7, hs = 6;
    const Vec f = ropeInvFreq(hs, 10000.0);
    const std::vector<float> table = ropeTable(T, f);
    ASSERT_EQ(table.size(), ropeTableFloats(T, hs));
    EXPECT_EQ(ropeTableFloats(4096, 128), 4096u * 128u);
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < hs / 2; ++i) {
            EXPECT_EQ(table[t * hs + i], static_cast<float>(std::cos(t * f[i])));
            EXPECT_EQ(table[t * hs + hs / 2 + i], static_cast<float>(std::sin(t * f[i])));
        }
}

// HF's rotate_half pairs element i with element i + hs/2 (not 2i with 2i+1). hs = 4,
// theta = 10000: f = (1, 10000^-0.5 = 0.01). Token 1 of x = (1, 2, 3, 4):
//   out0 = 1 cos 1 - 3 sin 1       = 0.540302 - 2.524413 = -1.984111
//   out1 = 2 cos .01 - 4 sin .01   = 1.999900 - 0.039999 =  1.959901
//   out2 = 3 cos 1 + 1 sin 1       = 1.620907 + 0.841471 =  2.462378
//   out3 = 4 cos .01 + 2 sin .01   = 3.999800 + 0.020000 =  4.019800
// Token 0 (angle 0) is unchanged.
TEST(RopeKernel, RotateHalfLayoutByHand) {
    auto k = makeCpuKernels(1);
    const std::vector<float> table = tableFor(2, 4, 10000.0);
    std::vector<float> x = {1, 2, 3, 4, 1, 2, 3, 4};
    k->ropeForward(x.data(), table.data(), 1, 2, 1, 4, 4);
    EXPECT_EQ(x[0], 1.0f);
    EXPECT_EQ(x[1], 2.0f);
    EXPECT_EQ(x[2], 3.0f);
    EXPECT_EQ(x[3], 4.0f);
    EXPECT_NEAR(x[4], -1.9841106486, 2e-6);
    EXPECT_NEAR(x[5], 1.9599006675, 2e-6);
    EXPECT_NEAR(x[6], 2.4623779024, 2e-6);
    EXPECT_NEAR(x[7], 4.0197996683, 2e-6);
}

struct Case {
    int threads;
    bool large; // over the kernels' parallel threshold (2^15 elements)
};

class RopeKernelTest : public ::testing::TestWithParam<Case> {
protected:
    std::unique_ptr<Kernels> k = makeCpuKernels(GetParam().threads);
    // A packed GQA-like row: q (NH heads) then k (NKV heads) then v; the test rotates k
    // only, through the pointer offset and the row stride, and checks q and v untouched.
    int B() const { return 2; }
    int T() const { return GetParam().large ? 70 : 5; }
    int NH() const { return GetParam().large ? 8 : 3; }
    int NKV() const { return GetParam().large ? 4 : 1; }
    int hs() const { return GetParam().large ? 32 : 6; }
    int stride() const { return (NH() + 2 * NKV()) * hs(); }
};

TEST_P(RopeKernelTest, ForwardMatchesReferenceOnThePackedKPart) {
    const int B = this->B(), T = this->T(), H = NKV(), hs = this->hs(), rs = stride();
    const double theta = 500000.0;
    Rng rng(501);
    const Vec packed = rng.uniform(static_cast<std::size_t>(B) * T * rs);
    // The reference rotates k, i.e. x shifted by NH*hs, on a copy.
    Vec want(packed);
    Vec kPart(want.begin() + NH() * hs, want.end());
    ropeRef(kPart, ropeInvFreq(hs, theta), B, T, H, hs, rs);
    std::copy(kPart.begin(), kPart.end(), want.begin() + NH() * hs);

    const std::vector<float> table = tableFor(T, hs, theta);
    std::vector<float> got = toFloat(packed);
    k->ropeForward(got.data() + NH() * hs, table.data(), B, T, H, hs, rs);
    EXPECT_TRUE(closeTo(got, want, kFp32Tol));
    for (std::size_t row = 0; row < static_cast<std::size_t>(B) * T; ++row)
        for (int c = 0; c < rs; ++c)
            if (c < NH() * hs || c >= (NH() + NKV()) * hs) {
                ASSERT_EQ(got[row * rs + c], static_cast<float>(packed[row * rs + c]))
                    << "row " << row << " channel " << c << " is not part of k";
            }
}

TEST_P(RopeKernelTest, PreservesNormsAndBackwardIsTheExactInverse) {
    const int B = this->B(), T = this->T(), H = NH(), hs = this->hs(), rs = H * hs;
    Rng rng(502);
    const std::vector<float> x0 = toFloat(rng.uniform(static_cast<std::size_t>(B) * T * rs));
    const std::vector<float> table = tableFor(T, hs, 10000.0);
    std::vector<float> x = x0;
    k->ropeForward(x.data(), table.data(), B, T, H, hs, rs);
    for (std::size_t head = 0; head < x.size() / hs; ++head) {
        double before = 0.0, after = 0.0;
        for (int i = 0; i < hs; ++i) {
            before += double(x0[head * hs + i]) * x0[head * hs + i];
            after += double(x[head * hs + i]) * x[head * hs + i];
        }
        ASSERT_NEAR(std::sqrt(after), std::sqrt(before), 1e-6 * std::sqrt(before))
            << "head " << head;
    }
    // Exact in real arithmetic; in fp32 the round trip carries 4 roundings per element and
    // the table's cos^2 + sin^2 - 1 (<= 2^-23): ~1e-8 absolute here, which closeTo measures
    // against its floor of 1% of the largest value (~1e-6 relative). 1e-5 is that with margin.
    k->ropeBackward(x.data(), table.data(), B, T, H, hs, rs);
    EXPECT_TRUE(closeTo(x, toDouble(x0), 1e-5));
}

// The backward of a linear map is its transpose: for L = sum(dy * rope(x)), dL/dx by
// central differences of the double reference equals ropeBackward(dy).
TEST_P(RopeKernelTest, BackwardMatchesFiniteDifferences) {
    if (GetParam().large)
        GTEST_SKIP() << "finite differences run on the small shape only (one loss per element)";
    const int B = this->B(), T = this->T(), H = NH(), hs = this->hs(), rs = H * hs + 2;
    Rng rng(503);
    const Vec f = ropeInvFreq(hs, 10000.0);
    Vec x = rng.uniform(static_cast<std::size_t>(B) * T * rs);
    const Vec dy = rng.uniform(x.size());
    auto loss = [&] {
        Vec y(x);
        ropeRef(y, f, B, T, H, hs, rs);
        return dot(y, dy);
    };
    // The two padding values per row are not rotated: their gradient is dy itself.
    std::vector<float> dx = toFloat(dy);
    const std::vector<float> table = ropeTable(T, f);
    k->ropeBackward(dx.data(), table.data(), B, T, H, hs, rs);
    expectGradient("dx", x, toDouble(dx), loss);
}

TEST_P(RopeKernelTest, RefusesOddHeadSizeAndShortRows) {
    std::vector<float> x(64, 1.0f), table(64, 0.0f);
    try {
        k->ropeForward(x.data(), table.data(), 1, 2, 2, 5, 10);
        ADD_FAILURE() << "odd hs accepted";
    } catch (const KernelError& e) {
        EXPECT_NE(std::string(e.what()).find("hs = 5"), std::string::npos) << e.what();
    }
    EXPECT_THROW(k->ropeBackward(x.data(), table.data(), 1, 2, 2, 5, 10), KernelError);
    EXPECT_THROW(k->ropeForward(x.data(), table.data(), 1, 2, 2, 4, 7), KernelError);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RopeKernelTest,
                         ::testing::Values(Case{1, false}, Case{1, true}, Case{2, true}),
                         [](const auto& info) {
                             return std::string(info.param.large ? "Large" : "Small") + "Threads" +
                                    std::to_string(info.param.threads);
                         });

} // namespace
} // namespace zerolab
