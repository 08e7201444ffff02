// The online-softmax ("flash") attention of the CPU kernels: equal to today's attention
// (attentionForward/Backward, GPT-2's packed qkv) within fp32 rounding, grouped-query
// attention against a double reference that repeats K/V per query head, the backward
// against central differences, accumulation, and the shape checks.
#include "kernels/kernels.h"
#include "tests/kernels/reference_ops.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>

namespace zerolab {
namespace {

using test::closeTo;
using test::plus;
using test::poisoned;
using test::Rng;
using test::toDouble;
using test::toFloat;
using FVec = std::vector<float>;
using Vec = std::vector<double>;

// Both attentions compute in fp32 with the same exp approximation (~2 ulp) but sum in a
// different order (flash: per 64-key tile, rescaled by exp(m_old - m_new) as the row max
// grows, and dS = P (dP - D) with D = rowsum(dO * O) instead of today's
// att (datt - rowsum(att * datt))). Each result is a sum of up to T terms, so the two
// differ by a few ulps of its largest terms: at most 2.7e-5 relative (closeTo's floor at 1%
// of the largest value) over the shapes below. Each of them is within 1e-4 of the double
// reference (cpu_kernels_test.cpp's bar), so 1e-4 is the bar here too: tighter would test
// the summation order, looser would let a wrong term through (those move results by O(1)).
constexpr double kSameMathTol = 1e-4;
// fp32 against the double reference, as in cpu_kernels_test.cpp.
constexpr double kFp32Tol = 1e-4;

struct PackedShape {
    int B, T, C, NH, threads;
};

void PrintTo(const PackedShape& s, std::ostream* os) {
    *os << "B=" << s.B << " T=" << s.T << " C=" << s.C << " NH=" << s.NH << " hs=" << s.C / s.NH
        << " threads=" << s.threads;
}

class FlashVsAttentionTest : public ::testing::TestWithParam<PackedShape> {};

// GPT-2's layout: flash reads qkv, qkv + C, qkv + 2C with stride 3C and writes dqkv the
// same way; today's attention is the reference, run on the same fp32 inputs.
TEST_P(FlashVsAttentionTest, EqualsTodaysAttentionForwardAndBackward) {
    const auto [B, T, C, NH, threads] = GetParam();
    auto k = makeCpuKernels(threads);
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * 3 * C;
    const std::size_t nOut = static_cast<std::size_t>(B) * T * C;
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * T * T;
    Rng rng(36);
    FVec qkv = toFloat(rng.uniform(nQkv, -2, 2)), dout = toFloat(rng.uniform(nOut));
    const FVec dqkv0 = toFloat(rng.uniform(nQkv));

    FVec out = poisoned(nOut), preatt = poisoned(nAtt), att = poisoned(nAtt);
    k->attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
    FVec dqkv = dqkv0, dpreatt = poisoned(nAtt), datt = poisoned(nAtt);
    k->attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), dout.data(), qkv.data(),
                         att.data(), B, T, C, NH);

    const auto d = FlashAttentionDims::packedQkv(B, T, C, NH);
    FVec fOut = poisoned(nOut), lse = poisoned(d.rowCount());
    k->flashAttentionForward(fOut.data(), lse.data(), qkv.data(), qkv.data() + C,
                             qkv.data() + 2 * C, d);
    EXPECT_TRUE(closeTo(fOut, toDouble(out), kSameMathTol));

    // lse = log sum_j<=i exp(preatt[i][j]), from today's scaled scores, in double.
    Vec wantLse(d.rowCount());
    for (std::size_t row = 0; row < wantLse.size(); ++row) {
        const std::size_t i = row % T;
        const float* p = preatt.data() + row * T;
        double maxv = p[0];
        for (std::size_t j = 1; j <= i; ++j)
            maxv = std::max(maxv, static_cast<double>(p[j]));
        double sum = 0.0;
        for (std::size_t j = 0; j <= i; ++j)
            sum += std::exp(p[j] - maxv);
        wantLse[row] = maxv + std::log(sum);
    }
    EXPECT_TRUE(closeTo(lse, wantLse, kSameMathTol));

    FVec fDqkv = dqkv0, delta = poisoned(d.rowCount());
    k->flashAttentionBackward(fDqkv.data(), fDqkv.data() + C, fDqkv.data() + 2 * C, delta.data(),
                              dout.data(), fOut.data(), lse.data(), qkv.data(), qkv.data() + C,
                              qkv.data() + 2 * C, d);
    // The pre-filled gradient is subtracted on both sides: a sum of O(1) values would
    // otherwise hide errors of the (smaller) attention gradient in its rounding.
    Vec got(nQkv), want(nQkv);
    for (std::size_t i = 0; i < nQkv; ++i) {
        got[i] = static_cast<double>(fDqkv[i]) - dqkv0[i];
        want[i] = static_cast<double>(dqkv[i]) - dqkv0[i];
    }
    EXPECT_TRUE(closeTo(toFloat(got), want, kSameMathTol));
    // delta is D = rowsum(dout * out), the backward's documented scratch content.
    Vec wantDelta(d.rowCount());
    for (std::size_t row = 0; row < wantDelta.size(); ++row) {
        const std::size_t t = row % T, bh = row / T, b = bh / NH, h = bh % NH;
        const std::size_t off = (b * T + t) * C + h * (C / NH);
        double s = 0.0;
        for (int c = 0; c < C / NH; ++c)
            s += static_cast<double>(dout[off + c]) * fOut[off + c];
        wantDelta[row] = s;
    }
    EXPECT_TRUE(closeTo(delta, wantDelta, kSameMathTol));
}

// T = 1 (a single key); T = 64 one whole query tile; T = 70, 130 and 200 past one, two and
// three with ragged last tiles; T = 300 past the 256-key chunk (the online softmax rescales
// across chunks); hs = 12, 20, 24 and 40 not powers of two; 2 threads take the parallel
// paths (more tasks than threads, dynamic schedule). The tile products run in blocks of
// 6 rows x 16 (or 8) columns with an element-wise edge: hs = 4 is all edge, 24 and 40 a
// block of 8 plus 16s, 64 (the mini shape's, at T = 256 as attention_bench; T = 262 past
// a chunk with a ragged edge) whole blocks.
INSTANTIATE_TEST_SUITE_P(
    Shapes, FlashVsAttentionTest,
    ::testing::Values(PackedShape{1, 1, 8, 2, 1}, PackedShape{3, 1, 24, 2, 2},
                      PackedShape{2, 64, 64, 4, 1}, PackedShape{2, 70, 36, 3, 1},
                      PackedShape{2, 130, 40, 2, 2}, PackedShape{2, 200, 96, 4, 2},
                      PackedShape{1, 129, 80, 2, 2}, PackedShape{1, 300, 32, 2, 2},
                      PackedShape{2, 256, 384, 6, 1}, PackedShape{1, 262, 128, 2, 2}));

// ---- grouped-query attention (Llama's layout) against a double reference ----

struct GqaShape {
    int B, T, NH, NKV, hs;
    int pad; // extra elements per token in q, k, v: strides above the width are honoured
    int threads;
};

void PrintTo(const GqaShape& s, std::ostream* os) {
    *os << "B=" << s.B << " T=" << s.T << " NH=" << s.NH << " NKV=" << s.NKV << " hs=" << s.hs
        << " pad=" << s.pad << " threads=" << s.threads;
}

// The reference may copy: K and V repeated per query head into GPT-2's packed layout, the
// double attention of reference_ops.h, and the K/V gradients summed back over each group.
struct GqaReference {
    Vec out, dq, dk, dv; // dq, dk, dv in the kernel's (strided) layouts, without prefill

    GqaReference(const FlashAttentionDims& d, const Vec& q, const Vec& k, const Vec& v,
                 const Vec& dout) {
        const int B = d.B, T = d.T, NH = d.NH, hs = d.hs, C = NH * hs, group = d.NH / d.NKV;
        Vec qkv(static_cast<std::size_t>(B) * T * 3 * C);
        for (int b = 0; b < B; ++b)
            for (int t = 0; t < T; ++t)
                for (int h = 0; h < NH; ++h)
                    for (int c = 0; c < hs; ++c) {
                        const std::size_t row = static_cast<std::size_t>(b) * T + t;
                        const std::size_t dst = row * 3 * C + h * hs + c;
                        qkv[dst] = q[row * d.qStride + h * hs + c];
                        qkv[dst + C] = k[row * d.kStride + (h / group) * hs + c];
                        qkv[dst + 2 * C] = v[row * d.vStride + (h / group) * hs + c];
                    }
        const std::size_t nAtt = static_cast<std::size_t>(B) * NH * T * T;
        Vec preatt(nAtt), att(nAtt), dqkv(qkv.size());
        out.assign(static_cast<std::size_t>(B) * T * C, 0.0);
        ref::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
        ref::attentionBackward(dqkv.data(), dout.data(), qkv.data(), att.data(), B, T, C, NH);
        dq.assign(q.size(), 0.0);
        dk.assign(k.size(), 0.0);
        dv.assign(v.size(), 0.0);
        for (int b = 0; b < B; ++b)
            for (int t = 0; t < T; ++t)
                for (int h = 0; h < NH; ++h)
                    for (int c = 0; c < hs; ++c) {
                        const std::size_t row = static_cast<std::size_t>(b) * T + t;
                        const std::size_t src = row * 3 * C + h * hs + c;
                        dq[row * d.qStride + h * hs + c] = dqkv[src];
                        dk[row * d.kStride + (h / group) * hs + c] += dqkv[src + C];
                        dv[row * d.vStride + (h / group) * hs + c] += dqkv[src + 2 * C];
                    }
    }
};

FlashAttentionDims gqaDims(const GqaShape& s) {
    auto d = FlashAttentionDims::separate(s.B, s.T, s.NH, s.NKV, s.hs);
    d.qStride += s.pad;
    d.kStride += s.pad;
    d.vStride += s.pad;
    return d;
}

class FlashGqaTest : public ::testing::TestWithParam<GqaShape> {};

TEST_P(FlashGqaTest, EqualsReferenceThatRepeatsKeysAndValues) {
    const GqaShape s = GetParam();
    const auto d = gqaDims(s);
    auto kernels = makeCpuKernels(s.threads);
    const std::size_t tokens = static_cast<std::size_t>(s.B) * s.T;
    const std::size_t nOut = tokens * s.NH * s.hs;
    Rng rng(38);
    // Padding elements hold values too: a kernel that read them would be off.
    const Vec q = rng.uniform(tokens * d.qStride, -2, 2),
              k = rng.uniform(tokens * d.kStride, -2, 2), v = rng.uniform(tokens * d.vStride),
              dout = rng.uniform(nOut);
    const Vec dq0 = rng.uniform(q.size()), dk0 = rng.uniform(k.size()), dv0 = rng.uniform(v.size());
    const GqaReference want(d, q, k, v, dout);

    FVec fq = toFloat(q), fk = toFloat(k), fv = toFloat(v), fDout = toFloat(dout);
    FVec out = poisoned(nOut), lse = poisoned(d.rowCount());
    kernels->flashAttentionForward(out.data(), lse.data(), fq.data(), fk.data(), fv.data(), d);
    EXPECT_TRUE(closeTo(out, want.out, kFp32Tol));

    FVec dq = toFloat(dq0), dk = toFloat(dk0), dv = toFloat(dv0), delta = poisoned(d.rowCount());
    kernels->flashAttentionBackward(dq.data(), dk.data(), dv.data(), delta.data(), fDout.data(),
                                    out.data(), lse.data(), fq.data(), fk.data(), fv.data(), d);
    // Padding elements of the gradients keep their prefill: the reference has 0 there.
    EXPECT_TRUE(closeTo(dq, plus(dq0, want.dq), kFp32Tol));
    EXPECT_TRUE(closeTo(dk, plus(dk0, want.dk), kFp32Tol));
    EXPECT_TRUE(closeTo(dv, plus(dv0, want.dv), kFp32Tol));
}

// NKV = NH (MHA), NH/2, NH/4 and 1 (multi-query); T = 70 crosses a query tile, T = 300 a
// key chunk; padded strides.
INSTANTIATE_TEST_SUITE_P(
    Groups, FlashGqaTest,
    ::testing::Values(GqaShape{2, 70, 8, 8, 12, 0, 1}, GqaShape{2, 70, 8, 4, 12, 0, 2},
                      GqaShape{2, 70, 8, 2, 12, 3, 1}, GqaShape{2, 70, 8, 1, 12, 0, 2},
                      GqaShape{1, 1, 4, 1, 20, 5, 1}, GqaShape{1, 131, 4, 2, 16, 1, 2},
                      GqaShape{1, 300, 4, 2, 8, 0, 2}));

// ---- the backward against central differences of the forward ----

// L = sum(out * w): dL/dout = w. Central differences of the fp32 forward with step 1e-2
// on O(1) inputs: truncation ~h^2 = 1e-4 of the third derivative, rounding ~1e-7 * |L| / h
// ~1e-4; 3e-3 (with closeTo's floor at 1% of the largest gradient) holds both with margin
// and still fails a missing term (a wrong term moves gradients by O(1)).
TEST(FlashAttentionGradcheck, BackwardMatchesCentralDifferences) {
    const GqaShape s{1, 5, 4, 2, 3, 1, 1};
    const auto d = gqaDims(s);
    auto kernels = makeCpuKernels(1);
    const std::size_t tokens = static_cast<std::size_t>(s.B) * s.T;
    const std::size_t nOut = tokens * s.NH * s.hs;
    Rng rng(7);
    FVec q = toFloat(rng.uniform(tokens * d.qStride, -1.5, 1.5)),
         k = toFloat(rng.uniform(tokens * d.kStride, -1.5, 1.5)),
         v = toFloat(rng.uniform(tokens * d.vStride)), w = toFloat(rng.uniform(nOut));

    FVec out(nOut), lse(d.rowCount());
    const auto loss = [&]() {
        kernels->flashAttentionForward(out.data(), lse.data(), q.data(), k.data(), v.data(), d);
        double l = 0.0;
        for (std::size_t i = 0; i < nOut; ++i)
            l += static_cast<double>(out[i]) * w[i];
        return l;
    };
    loss();
    FVec dq(q.size(), 0.0f), dk(k.size(), 0.0f), dv(v.size(), 0.0f), delta(d.rowCount());
    kernels->flashAttentionBackward(dq.data(), dk.data(), dv.data(), delta.data(), w.data(),
                                    out.data(), lse.data(), q.data(), k.data(), v.data(), d);

    constexpr float kStep = 1e-2f;
    const auto numeric = [&](FVec& x) {
        Vec g(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float x0 = x[i];
            x[i] = x0 + kStep;
            const double up = loss();
            x[i] = x0 - kStep;
            const double down = loss();
            x[i] = x0;
            g[i] = (up - down) / (2.0 * kStep);
        }
        return g;
    };
    EXPECT_TRUE(closeTo(dq, numeric(q), 3e-3));
    EXPECT_TRUE(closeTo(dk, numeric(k), 3e-3));
    EXPECT_TRUE(closeTo(dv, numeric(v), 3e-3));
}

// ---- accumulation and scratch ----

// Every backward here accumulates: two calls from zero give twice one call (to the
// rounding of the second addition), whatever the scratch delta held before.
TEST(FlashAttentionAccumulates, TwoBackwardCallsGiveTwiceTheGradient) {
    const GqaShape s{2, 70, 4, 2, 8, 0, 2};
    const auto d = gqaDims(s);
    auto kernels = makeCpuKernels(s.threads);
    const std::size_t tokens = static_cast<std::size_t>(s.B) * s.T;
    const std::size_t nOut = tokens * s.NH * s.hs;
    Rng rng(2);
    FVec q = toFloat(rng.uniform(tokens * d.qStride, -2, 2)),
         k = toFloat(rng.uniform(tokens * d.kStride, -2, 2)),
         v = toFloat(rng.uniform(tokens * d.vStride)), dout = toFloat(rng.uniform(nOut));
    FVec out(nOut), lse(d.rowCount());
    kernels->flashAttentionForward(out.data(), lse.data(), q.data(), k.data(), v.data(), d);

    const auto backward = [&](int calls) {
        FVec dq(q.size(), 0.0f), dk(k.size(), 0.0f), dv(v.size(), 0.0f);
        for (int c = 0; c < calls; ++c) {
            FVec delta = poisoned(d.rowCount());
            kernels->flashAttentionBackward(dq.data(), dk.data(), dv.data(), delta.data(),
                                            dout.data(), out.data(), lse.data(), q.data(), k.data(),
                                            v.data(), d);
        }
        FVec all = dq;
        all.insert(all.end(), dk.begin(), dk.end());
        all.insert(all.end(), dv.begin(), dv.end());
        return all;
    };
    const FVec once = backward(1), twice = backward(2);
    Vec doubled(once.size());
    for (std::size_t i = 0; i < once.size(); ++i)
        doubled[i] = 2.0 * once[i];
    EXPECT_TRUE(closeTo(twice, doubled, 1e-6));
}

// ---- shape checks: each names the op and the value ----

void expectRejected(const FlashAttentionDims& d, const std::string& needle) {
    auto kernels = makeCpuKernels(1);
    FVec buf(1 << 12);
    try {
        kernels->flashAttentionForward(buf.data(), buf.data(), buf.data(), buf.data(), buf.data(),
                                       d);
        ADD_FAILURE() << "accepted, expected an error naming " << needle;
    } catch (const KernelError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("flashAttentionForward"), std::string::npos) << what;
        EXPECT_NE(what.find(needle), std::string::npos) << what;
    }
}

TEST(FlashAttentionDimsCheck, RejectsInvalidLayoutsNamingTheValue) {
    expectRejected(FlashAttentionDims::separate(1, 4, 6, 4, 8), "NKV=4");
    expectRejected(FlashAttentionDims::separate(1, 0, 4, 4, 8), "T=0");
    auto d = FlashAttentionDims::separate(1, 4, 4, 2, 8);
    d.kStride = 15;
    expectRejected(d, "kStride=15");
    d = FlashAttentionDims::separate(1, 4, 4, 2, 8);
    d.qStride = 31;
    expectRejected(d, "qStride=31");
    EXPECT_THROW(FlashAttentionDims::packedQkv(1, 4, 10, 3), KernelError);
}

} // namespace
} // namespace zerolab
