// RMSNorm (Kernels::rmsnormForward/Backward, HF LlamaRMSNorm): a naive double reference,
// its backward checked by central differences, and the fp32 CPU kernel held to it
// (outputs poisoned with NaN, gradients pre-filled to check +=) at a small odd shape on
// 1 thread and above the parallel threshold on 1 and 2 threads.
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
using test::toDouble;
using test::toFloat;
using Vec = std::vector<double>;

constexpr double kFp32Tol = 1e-4;
constexpr double kEps = 1e-5; // Llama 3's rms_norm_eps

// out[n,c] = x[n,c] / sqrt(mean_c x^2 + eps) * w[c], written as plainly as possible.
void rmsnormRef(Vec& out, Vec& rstd, const Vec& x, const Vec& w, int N, int C, double eps) {
    for (int n = 0; n < N; ++n) {
        double sq = 0.0;
        for (int c = 0; c < C; ++c)
            sq += x[n * C + c] * x[n * C + c];
        rstd[n] = 1.0 / std::sqrt(sq / C + eps);
        for (int c = 0; c < C; ++c)
            out[n * C + c] = x[n * C + c] * rstd[n] * w[c];
    }
}

// The analytic gradient, added into dx and dw: with r = rstd,
//   dx_j = r w_j dy_j - r^3 x_j / C * sum_k w_k dy_k x_k;   dw_j = sum_n x_j r dy_j.
void rmsnormBackwardRef(Vec& dx, Vec& dw, const Vec& dy, const Vec& x, const Vec& w, int N, int C,
                        double eps) {
    for (int n = 0; n < N; ++n) {
        double sq = 0.0, wdx = 0.0;
        for (int c = 0; c < C; ++c) {
            sq += x[n * C + c] * x[n * C + c];
            wdx += w[c] * dy[n * C + c] * x[n * C + c];
        }
        const double r = 1.0 / std::sqrt(sq / C + eps);
        for (int c = 0; c < C; ++c) {
            dx[n * C + c] += r * w[c] * dy[n * C + c] - r * r * r * x[n * C + c] / C * wdx;
            dw[c] += x[n * C + c] * r * dy[n * C + c];
        }
    }
}

TEST(RmsnormReference, BackwardMatchesFiniteDifferences) {
    const int N = 3, C = 5;
    Rng rng(301);
    Vec x = rng.uniform(N * C), w = rng.uniform(C, 0.5, 1.5), r = rng.uniform(N * C);
    Vec out(N * C), rstd(N);
    auto loss = [&] {
        rmsnormRef(out, rstd, x, w, N, C, kEps);
        return dot(out, r);
    };
    Vec dx(x.size(), 0.0), dw(w.size(), 0.0);
    rmsnormBackwardRef(dx, dw, r, x, w, N, C, kEps);
    expectGradient("dinp", x, dx, loss);
    expectGradient("dweight", w, dw, loss);
}

struct Case {
    int threads;
    bool large; // over the kernels' parallel threshold (2^15 elements)
};

class RmsnormKernelTest : public ::testing::TestWithParam<Case> {
protected:
    std::unique_ptr<Kernels> k = makeCpuKernels(GetParam().threads);
    int N() const { return GetParam().large ? 96 : 3; }
    int C() const { return GetParam().large ? 384 : 7; }
};

TEST_P(RmsnormKernelTest, ForwardMatchesReference) {
    const int N = this->N(), C = this->C();
    Rng rng(302);
    // An offset so that the mean is far from 0: RMSNorm must not subtract it.
    const Vec x = rng.uniform(N * C, 0.5, 3.0), w = rng.uniform(C, -1.5, 1.5);
    Vec out(N * C), rstd(N);
    rmsnormRef(out, rstd, x, w, N, C, kEps);

    auto fOut = poisoned(out.size()), fRstd = poisoned(rstd.size());
    const auto fx = toFloat(x), fw = toFloat(w);
    k->rmsnormForward(fOut.data(), fRstd.data(), fx.data(), fw.data(), N, C,
                      static_cast<float>(kEps));
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    EXPECT_TRUE(closeTo(fRstd, rstd, kFp32Tol));
}

TEST_P(RmsnormKernelTest, BackwardAccumulatesTheReferenceGradient) {
    const int N = this->N(), C = this->C();
    Rng rng(303);
    const Vec x = rng.uniform(N * C), w = rng.uniform(C, 0.5, 1.5), dy = rng.uniform(N * C);
    const Vec dx0 = rng.uniform(N * C), dw0 = rng.uniform(C);
    Vec dx(N * C, 0.0), dw(C, 0.0);
    rmsnormBackwardRef(dx, dw, dy, x, w, N, C, kEps);

    const auto fx = toFloat(x), fw = toFloat(w), fdy = toFloat(dy);
    auto fOut = poisoned(x.size()), fRstd = poisoned(N);
    k->rmsnormForward(fOut.data(), fRstd.data(), fx.data(), fw.data(), N, C,
                      static_cast<float>(kEps));
    auto fdx = toFloat(dx0), fdw = toFloat(dw0);
    k->rmsnormBackward(fdx.data(), fdw.data(), fdy.data(), fx.data(), fw.data(), fRstd.data(), N,
                       C);
    EXPECT_TRUE(closeTo(fdx, plus(dx0, dx), kFp32Tol));
    EXPECT_TRUE(closeTo(fdw, plus(dw0, dw), kFp32Tol));
}

TEST_P(RmsnormKernelTest, RefusesANonPositiveEps) {
    std::vector<float> x(4, 1.0f), w(4, 1.0f), out(4), rstd(1);
    for (float eps : {0.0f, -1e-6f, std::nanf("")}) {
        try {
            k->rmsnormForward(out.data(), rstd.data(), x.data(), w.data(), 1, 4, eps);
            ADD_FAILURE() << "eps " << eps << " accepted";
        } catch (const KernelError& e) {
            EXPECT_NE(std::string(e.what()).find("eps"), std::string::npos) << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, RmsnormKernelTest,
                         ::testing::Values(Case{1, false}, Case{1, true}, Case{2, true}),
                         [](const auto& info) {
                             return std::string(info.param.large ? "Large" : "Small") + "Threads" +
                                    std::to_string(info.param.threads);
                         });

} // namespace
} // namespace zerolab
