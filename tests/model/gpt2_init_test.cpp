// GPT-2 initialisation: the statistics GPT-2 prescribes, and the same values for
// every world size (pad_multiple) so that any N trains the same model.
#include "model_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace zerolab {
namespace {

using test::initAllUnits;

struct Stats {
    double mean = 0.0;
    double std = 0.0;
};
Stats stats(const float* p, std::int64_t n) {
    double s = 0.0, s2 = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        s += p[i];
        s2 += double(p[i]) * p[i];
    }
    return {s / n, std::sqrt(s2 / n - (s / n) * (s / n))};
}

TEST(Gpt2Init, FollowsGpt2Statistics) {
    const ModelShape s = *findModelPreset("micro");
    const ParamLayout p = makeParamLayout(s, 1);
    std::vector<float> flat;
    initAllUnits(p, 42, flat);
    auto at = [&](Gpt2Tensor t, int l = 0) { return flat.data() + p.flatOffset(t, l); };
    auto n = [&](Gpt2Tensor t) { return gpt2TensorElements(s, t); };

    for (Gpt2Tensor t : {Gpt2Tensor::Wte, Gpt2Tensor::Wpe, Gpt2Tensor::Qkvw, Gpt2Tensor::Fcw}) {
        const Stats st = stats(at(t, 1), n(t));
        EXPECT_NEAR(st.mean, 0.0, 1e-3) << kGpt2TensorNames[static_cast<int>(t)];
        EXPECT_NEAR(st.std, 0.02, 0.02 * 0.02) << kGpt2TensorNames[static_cast<int>(t)];
    }
    const double residualStd = 0.02 / std::sqrt(2.0 * s.n_layer);
    for (Gpt2Tensor t : {Gpt2Tensor::Attprojw, Gpt2Tensor::Fcprojw})
        EXPECT_NEAR(stats(at(t, 2), n(t)).std, residualStd, residualStd * 0.03);
    for (Gpt2Tensor t : {Gpt2Tensor::Ln1w, Gpt2Tensor::Ln2w, Gpt2Tensor::Lnfw})
        for (std::int64_t i = 0; i < n(t); ++i)
            ASSERT_EQ(at(t, 3)[i], 1.0f);
    for (Gpt2Tensor t : {Gpt2Tensor::Ln1b, Gpt2Tensor::Qkvb, Gpt2Tensor::Attprojb, Gpt2Tensor::Ln2b,
                         Gpt2Tensor::Fcb, Gpt2Tensor::Fcprojb, Gpt2Tensor::Lnfb})
        for (std::int64_t i = 0; i < n(t); ++i)
            ASSERT_EQ(at(t, 0)[i], 0.0f);
    // Layers and tensors get different streams.
    EXPECT_NE(at(Gpt2Tensor::Qkvw, 0)[0], at(Gpt2Tensor::Qkvw, 1)[0]);
    EXPECT_NE(at(Gpt2Tensor::Wte)[0], at(Gpt2Tensor::Wpe)[0]);
}

TEST(Gpt2Init, PaddedVocabularyRowsAndUnitPaddingAreZero) {
    ModelShape s = *findModelPreset("nano");
    s.vocab_size = 200;
    const ParamLayout p = makeParamLayout(s, 3);
    std::vector<float> flat(static_cast<std::size_t>(p.padded_total), 7.0f);
    for (const UnitLayout& u : p.units)
        initUnitParams(s, u, 1, flat.data() + u.offset);
    const float* wte = flat.data() + p.flatOffset(Gpt2Tensor::Wte);
    for (std::int64_t i = std::int64_t{200} * s.n_embd; i < std::int64_t{256} * s.n_embd; ++i)
        ASSERT_EQ(wte[i], 0.0f) << i;
    EXPECT_NE(wte[std::int64_t{199} * s.n_embd], 0.0f);
    for (const UnitLayout& u : p.units)
        for (std::int64_t i = u.elems; i < u.padded_elems; ++i)
            ASSERT_EQ(flat[static_cast<std::size_t>(u.offset + i)], 0.0f);
}

TEST(Gpt2Init, IsIndependentOfPadMultiple) {
    const ModelShape s = *findModelPreset("nano");
    const ParamLayout p1 = makeParamLayout(s, 1);
    std::vector<float> ref;
    initAllUnits(p1, 7, ref);
    for (int n = 2; n <= 4; ++n) {
        const ParamLayout pn = makeParamLayout(s, n);
        std::vector<float> flat;
        initAllUnits(pn, 7, flat);
        for (int ti = 0; ti < kGpt2TensorCount; ++ti) {
            const auto t = static_cast<Gpt2Tensor>(ti);
            for (int l = 0; l < (isPerLayer(t) ? s.n_layer : 1); ++l)
                ASSERT_EQ(std::memcmp(ref.data() + p1.flatOffset(t, l),
                                      flat.data() + pn.flatOffset(t, l),
                                      gpt2TensorElements(s, t) * sizeof(float)),
                          0)
                    << "N=" << n << " " << kGpt2TensorNames[ti] << " layer " << l;
        }
    }
}

TEST(Gpt2Init, SeedChangesValues) {
    const ModelShape s = *findModelPreset("nano");
    const ParamLayout p = makeParamLayout(s, 1);
    std::vector<float> a, b, c;
    initAllUnits(p, 1, a);
    initAllUnits(p, 2, b);
    initAllUnits(p, 1, c);
    EXPECT_NE(a, b);
    EXPECT_EQ(a, c);
}

} // namespace
} // namespace zerolab
