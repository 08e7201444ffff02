// The whole model's gradient against central finite differences of the
// double-precision reference loss, on a sample of every parameter tensor of every
// unit (the kernels are fp32, so the reference carries the precision).
#include "model_test_util.h"
#include "reference_gpt2.h"
#include "test_unit_access.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace zerolab {
namespace {

struct GradCase {
    ModelShape shape;
    int B;
    int T;
    int pad; // the engine's N: gradients land in a padded layout
    float grad_scale;
};

// Checks each sampled entry and the relative L2 error over the whole sample.
void checkGradient(const GradCase& c) {
    const ModelShape& s = c.shape;
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    Gpt2 model(s, c.B, c.T, *k, ledger);
    test::FlatUnitAccess access(makeParamLayout(s, c.pad));
    const ParamLayout& layout = access.layout();
    test::randomParams(layout, 21, access.paramsFlat());
    // Inputs may use the padded vocabulary rows; targets never do.
    const auto in = test::randomTokens(c.B * c.T, s.padded_vocab_size, 22);
    const auto tg = test::randomTokens(c.B * c.T, s.vocab_size, 23);
    model.forward(in.data(), tg.data(), access);
    model.backward(in.data(), tg.data(), access, c.grad_scale);

    std::vector<double> p(access.paramsFlat().begin(), access.paramsFlat().end());
    std::mt19937 rng(24);
    double errSq = 0.0, refSq = 0.0;
    int checked = 0;
    auto check = [&](std::int64_t flat, const std::string& what) {
        constexpr double kEps = 1e-4;
        const double saved = p[flat];
        p[flat] = saved + kEps;
        const double up = test::referenceLoss(layout, p, in, tg, c.B, c.T);
        p[flat] = saved - kEps;
        const double down = test::referenceLoss(layout, p, in, tg, c.B, c.T);
        p[flat] = saved;
        const double fd = c.grad_scale * (up - down) / (2 * kEps);
        const double g = access.gradsFlat()[static_cast<std::size_t>(flat)];
        errSq += (g - fd) * (g - fd);
        refSq += fd * fd;
        ++checked;
        EXPECT_NEAR(g, fd, 1e-3 * std::abs(fd) + 1e-6) << what << " flat index " << flat;
    };
    for (const UnitLayout& u : layout.units)
        for (int ti = 0; ti < kGpt2TensorCount; ++ti) {
            const auto t = static_cast<Gpt2Tensor>(ti);
            if (!u.has(t))
                continue;
            std::uniform_int_distribution<std::int64_t> pick(0, gpt2TensorElements(s, t) - 1);
            for (int i = 0; i < 6; ++i)
                check(u.offset + u.tensorOffset(t) + pick(rng),
                      "unit " + std::to_string(u.index) + " " + std::string(kGpt2TensorNames[ti]));
        }
    // wte rows of the inputs get both the encoder and the lm-head contribution.
    for (int i = 0; i < 4; ++i)
        check(layout.flatOffset(Gpt2Tensor::Wte) + std::int64_t{in[i]} * s.n_embd + i,
              "wte input row");
    // Gradients never land in the units' padding.
    for (const UnitLayout& u : layout.units)
        for (std::int64_t i = u.elems; i < u.padded_elems; ++i)
            EXPECT_EQ(access.gradsFlat()[static_cast<std::size_t>(u.offset + i)], 0.0f);
    EXPECT_GE(checked, 6 * kGpt2TensorCount);
    EXPECT_LT(std::sqrt(errSq / refSq), 1e-4); // measured ~6e-7
}

TEST(Gpt2Gradient, NanoMatchesFiniteDifferences) {
    checkGradient({test::nanoShape(), 2, 16, 1, 1.0f});
}

// Vp > V (padded rows used as inputs, never as targets), T < seq_len, a padded layout
// and a grad_scale.
TEST(Gpt2Gradient, PaddedVocabularyScaledAndPaddedLayout) {
    checkGradient({ModelShape{1, 2, 32, 16, 50, 64}, 3, 5, 3, 0.25f});
}

} // namespace
} // namespace zerolab
