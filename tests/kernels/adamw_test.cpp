// The optimizer kernels: one AdamW step worked by hand, the bias-corrected
// formula over several steps t (in double), Adam's L2 variant, gradScale, and
// the mixed-precision variants (fp32 master, bf16 working copy).
#include "kernels/kernels.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace zerolab {
namespace {

// One element's step in double, written out from the formula in kernels.h.
struct RefAdam {
    double p, m = 0.0, v = 0.0;

    void step(double grad, const AdamParams& hp) {
        double g = grad * hp.gradScale;
        if (!hp.decoupled)
            g += hp.weightDecay * p;
        m = hp.beta1 * m + (1.0 - hp.beta1) * g;
        v = hp.beta2 * v + (1.0 - hp.beta2) * g * g;
        const double mhat = m / (1.0 - std::pow(static_cast<double>(hp.beta1), hp.step));
        const double vhat = v / (1.0 - std::pow(static_cast<double>(hp.beta2), hp.step));
        double update = mhat / (std::sqrt(vhat) + hp.eps);
        if (hp.decoupled)
            update += hp.weightDecay * p;
        p -= hp.lr * update;
    }
};

// t = 1 with m = v = 0: mhat = g and vhat = g^2, so the Adam term is g/(|g|+eps) ~ sign(g).
// p = 2, g = 0.5, lr = 0.1, wd = 0.01: p' = 2 - 0.1 * (0.5/(0.5+1e-8) + 0.01*2) = 1.898.
TEST(Adamw, FirstStepByHand) {
    auto k = makeCpuKernels(1);
    float p = 2.0f, g = 0.5f, m = 0.0f, v = 0.0f;
    AdamParams hp;
    hp.lr = 0.1f;
    hp.weightDecay = 0.01f;
    k->adamw(&p, &g, &m, &v, 1, hp);
    EXPECT_NEAR(p, 1.898f, 1e-6f);
    // (1-0.9)*0.5 and (1-0.999)*0.25, to the rounding of 1-beta in fp32 (5e-5 for beta2).
    EXPECT_NEAR(m, 0.05f, 0.05f * 1e-6f);
    EXPECT_NEAR(v, 0.00025f, 0.00025f * 1e-4f);
}

// Several steps t = 1..6 with changing gradients, for AdamW and Adam (L2), with a
// gradScale, on enough elements to take the threaded path.
void checkSteps(bool decoupled, int threads) {
    auto k = makeCpuKernels(threads);
    const std::size_t n = 70001;
    test::Rng rng(21);
    const auto p0 = rng.uniform(n, -1, 1);
    std::vector<RefAdam> ref(n);
    for (std::size_t i = 0; i < n; ++i)
        ref[i].p = p0[i];
    auto p = test::toFloat(p0);
    std::vector<float> m(n, 0.0f), v(n, 0.0f);
    AdamParams hp;
    hp.lr = 3e-3f;
    hp.beta1 = 0.8f;
    hp.beta2 = 0.95f;
    hp.eps = 1e-6f;
    hp.weightDecay = 0.1f;
    hp.gradScale = 0.25f;
    hp.decoupled = decoupled;
    for (int t = 1; t <= 6; ++t) {
        hp.step = t;
        const auto g = test::toFloat(rng.uniform(n, -2, 2));
        for (std::size_t i = 0; i < n; ++i)
            ref[i].step(g[i], hp);
        k->adamw(p.data(), g.data(), m.data(), v.data(), n, hp);
    }
    std::vector<double> wantP(n), wantM(n), wantV(n);
    for (std::size_t i = 0; i < n; ++i) {
        wantP[i] = ref[i].p;
        wantM[i] = ref[i].m;
        wantV[i] = ref[i].v;
    }
    EXPECT_TRUE(test::closeTo(p, wantP, 1e-5)) << "decoupled " << decoupled;
    EXPECT_TRUE(test::closeTo(m, wantM, 1e-5)) << "decoupled " << decoupled;
    EXPECT_TRUE(test::closeTo(v, wantV, 1e-5)) << "decoupled " << decoupled;
}

TEST(Adamw, BiasCorrectedFormulaOverSteps) {
    checkSteps(true, 1);
    checkSteps(true, 2);
}

TEST(Adamw, AdamWithL2OverSteps) {
    checkSteps(false, 1);
}

// Adam (L2) and AdamW differ once weight decay is on: the flag must reach the kernel.
TEST(Adamw, DecoupledFlagChangesTheStep) {
    auto k = makeCpuKernels(1);
    AdamParams hp;
    hp.lr = 0.1f;
    hp.weightDecay = 0.5f;
    float pw = 1.0f, pa = 1.0f, g = 0.1f, mw = 0, vw = 0, ma = 0, va = 0;
    k->adamw(&pw, &g, &mw, &vw, 1, hp);
    hp.decoupled = false;
    k->adamw(&pa, &g, &ma, &va, 1, hp);
    EXPECT_NEAR(pw, 1.0f - 0.1f * (1.0f + 0.5f), 1e-6f);
    EXPECT_NEAR(pa, 1.0f - 0.1f, 1e-6f); // g + wd*p = 0.6 > 0: the step is ~lr * 1
}

TEST(Adamw, RejectsStepZero) {
    auto k = makeCpuKernels(1);
    float p = 1, g = 1, m = 0, v = 0;
    AdamParams hp;
    hp.step = 0;
    EXPECT_THROW(k->adamw(&p, &g, &m, &v, 1, hp), KernelError);
}

// The mixed variants produce the same master as the fp32 step and a bf16 copy of it.
TEST(Adamw, MixedPrecisionMatchesFp32Master) {
    auto k = makeCpuKernels(1);
    const std::size_t n = 1000;
    test::Rng rng(22);
    const auto p0 = test::toFloat(rng.uniform(n));
    std::vector<Bf16> gBf(n);
    for (std::size_t i = 0; i < n; ++i)
        gBf[i] = bf16FromFloat(static_cast<float>(i % 7) * 0.1f - 0.3f);
    std::vector<float> gF(n);
    for (std::size_t i = 0; i < n; ++i)
        gF[i] = floatFromBf16(gBf[i]);
    AdamParams hp;
    hp.lr = 1e-2f;
    hp.weightDecay = 0.1f;
    hp.step = 3;

    auto pRef = p0;
    std::vector<float> mRef(n, 0.01f), vRef(n, 0.02f);
    k->adamw(pRef.data(), gF.data(), mRef.data(), vRef.data(), n, hp);

    for (bool bf16Grads : {true, false}) {
        auto master = p0;
        std::vector<float> m(n, 0.01f), v(n, 0.02f);
        std::vector<Bf16> out(n, Bf16{0xffff});
        if (bf16Grads)
            k->adamwMixed(master.data(), out.data(), gBf.data(), m.data(), v.data(), n, hp);
        else
            k->adamwMixed(master.data(), out.data(), gF.data(), m.data(), v.data(), n, hp);
        EXPECT_EQ(master, pRef) << "bf16 grads " << bf16Grads;
        EXPECT_EQ(m, mRef);
        EXPECT_EQ(v, vRef);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i].bits, bf16FromFloat(pRef[i]).bits) << "element " << i;
    }
}

} // namespace
} // namespace zerolab
