// SwiGLU's gate (Kernels::swigluForward/Backward, HF LlamaMLP: silu(gate) * up): a naive
// double reference, its backward checked by central differences, the fp32 CPU kernel held
// to it (output poisoned, gradients pre-filled to check +=) on 1 and 2 threads, and gates
// far in both tails stay finite.
#include "kernels/kernels.h"
#include "tests/kernels/gradcheck.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace zerolab {
namespace {

using test::closeTo;
using test::dot;
using test::expectGradient;
using test::plus;
using test::poisoned;
using test::Rng;
using test::toFloat;
using Vec = std::vector<double>;

constexpr double kFp32Tol = 1e-4;

double sigmoidRef(double g) {
    return 1.0 / (1.0 + std::exp(-g));
}

void swigluRef(Vec& out, const Vec& gate, const Vec& up) {
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = gate[i] * sigmoidRef(gate[i]) * up[i];
}

// d/dg [g s(g)] = s + g s (1 - s).
void swigluBackwardRef(Vec& dgate, Vec& dup, const Vec& dout, const Vec& gate, const Vec& up) {
    for (std::size_t i = 0; i < dout.size(); ++i) {
        const double s = sigmoidRef(gate[i]);
        dgate[i] += dout[i] * up[i] * (s + gate[i] * s * (1.0 - s));
        dup[i] += dout[i] * gate[i] * s;
    }
}

TEST(SwigluReference, BackwardMatchesFiniteDifferences) {
    const std::size_t n = 9;
    Rng rng(401);
    Vec gate = rng.uniform(n, -4, 4), up = rng.uniform(n), r = rng.uniform(n), out(n);
    auto loss = [&] {
        swigluRef(out, gate, up);
        return dot(out, r);
    };
    Vec dgate(n, 0.0), dup(n, 0.0);
    swigluBackwardRef(dgate, dup, r, gate, up);
    expectGradient("dgate", gate, dgate, loss);
    expectGradient("dup", up, dup, loss);
}

class SwigluKernelTest : public ::testing::TestWithParam<int> {
protected:
    std::unique_ptr<Kernels> k = makeCpuKernels(GetParam());
};

TEST_P(SwigluKernelTest, ForwardAndBackwardMatchTheReference) {
    for (std::size_t n : {std::size_t{13}, std::size_t{70'001}}) { // below and above 2^15
        SCOPED_TRACE("n = " + std::to_string(n));
        Rng rng(402);
        const Vec gate = rng.uniform(n, -6, 6), up = rng.uniform(n, -2, 2), dout = rng.uniform(n);
        const Vec dgate0 = rng.uniform(n), dup0 = rng.uniform(n);
        Vec out(n), dgate(n, 0.0), dup(n, 0.0);
        swigluRef(out, gate, up);
        swigluBackwardRef(dgate, dup, dout, gate, up);

        const auto fg = toFloat(gate), fu = toFloat(up), fd = toFloat(dout);
        auto fOut = poisoned(n);
        k->swigluForward(fOut.data(), fg.data(), fu.data(), n);
        EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));

        auto fdg = toFloat(dgate0), fdu = toFloat(dup0);
        k->swigluBackward(fdg.data(), fdu.data(), fd.data(), fg.data(), fu.data(), n);
        EXPECT_TRUE(closeTo(fdg, plus(dgate0, dgate), kFp32Tol));
        EXPECT_TRUE(closeTo(fdu, plus(dup0, dup), kFp32Tol));
    }
}

// Far tails: silu(g) -> g for g >> 0 and -> 0 for g << 0; the derivative -> 1 and 0. The
// clamp inside keeps every value finite (no inf * 0).
TEST_P(SwigluKernelTest, TailsStayFinite) {
    const std::vector<float> gate = {-1e4f, -200.0f, -90.0f, 0.0f, 90.0f, 200.0f, 1e4f};
    const std::size_t n = gate.size();
    const std::vector<float> up(n, 1.0f), dout(n, 1.0f);
    std::vector<float> out = poisoned(n), dgate(n, 0.0f), dup(n, 0.0f);
    k->swigluForward(out.data(), gate.data(), up.data(), n);
    k->swigluBackward(dgate.data(), dup.data(), dout.data(), gate.data(), up.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
        SCOPED_TRACE("gate " + std::to_string(gate[i]));
        ASSERT_TRUE(std::isfinite(out[i]) && std::isfinite(dgate[i]) && std::isfinite(dup[i]));
        if (gate[i] > 50) {
            EXPECT_FLOAT_EQ(out[i], gate[i]);
            EXPECT_FLOAT_EQ(dgate[i], 1.0f);
        } else if (gate[i] < -50) {
            EXPECT_NEAR(out[i], 0.0f, 1e-30f);
            EXPECT_NEAR(dgate[i], 0.0f, 1e-30f);
        } else {
            EXPECT_EQ(out[i], 0.0f);
            EXPECT_FLOAT_EQ(dgate[i], 0.5f);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Threads, SwigluKernelTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "Threads" + std::to_string(info.param); });

} // namespace
} // namespace zerolab
