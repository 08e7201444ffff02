// Llama initialisation: Hugging Face's statistics (every Linear and the embedding N(0,
// 0.02), norms 1, biases 0), the padded rows and the units' padding 0, the same values for
// every world size (pad_multiple), and a seed per run.
#include "llama_test_util.h"
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

TEST(LlamaInit, FollowsHuggingFaceStatistics) {
    ModelShape s = *findModelPreset("llama-micro"); // untied: lm_head initialised too
    s.qkv_bias = true;
    const ParamLayout p = makeParamLayout(s, 1);
    std::vector<float> flat;
    initAllUnits(p, 42, flat);
    using P = LlamaTensor;
    auto at = [&](P t, int l = 0) { return flat.data() + p.flatOffset(t, l); };
    auto n = [&](P t) { return llamaTensorElements(s, t); };
    for (P t : {P::EmbedTokens, P::QProj, P::KProj, P::VProj, P::OProj, P::GateProj, P::UpProj,
                P::DownProj, P::LmHead}) {
        // Depth does not scale any of them (GPT-2's residual projections are).
        const Stats st = stats(at(t, s.n_layer - 1), n(t));
        EXPECT_NEAR(st.mean, 0.0, 2e-3) << kLlamaTensorNames[static_cast<int>(t)];
        EXPECT_NEAR(st.std, 0.02, 0.02 * 0.03) << kLlamaTensorNames[static_cast<int>(t)];
    }
    for (P t : {P::InputLayernorm, P::PostAttentionLayernorm, P::Norm})
        for (std::int64_t i = 0; i < n(t); ++i)
            ASSERT_EQ(at(t, 1)[i], 1.0f);
    for (P t : {P::QBias, P::KBias, P::VBias}) {
        ASSERT_GT(n(t), 0);
        for (std::int64_t i = 0; i < n(t); ++i)
            ASSERT_EQ(at(t, 2)[i], 0.0f);
    }
    // Layers and tensors get different streams; the untied head is not the embedding.
    EXPECT_NE(at(P::QProj, 0)[0], at(P::QProj, 1)[0]);
    EXPECT_NE(at(P::GateProj)[0], at(P::UpProj)[0]);
    EXPECT_NE(std::memcmp(at(P::EmbedTokens), at(P::LmHead), n(P::LmHead) * sizeof(float)), 0);
}

TEST(LlamaInit, PaddedVocabularyRowsAndUnitPaddingAreZero) {
    for (bool tied : {true, false}) {
        const ModelShape s = test::smallLlamaShape({.tied = tied, .vocab = 17, .padded_vocab = 24});
        const ParamLayout p = makeParamLayout(s, 3);
        std::vector<float> flat(static_cast<std::size_t>(p.padded_total), 7.0f);
        for (const UnitLayout& u : p.units)
            initUnitParams(s, u, 1, flat.data() + u.offset);
        for (LlamaTensor t : {LlamaTensor::EmbedTokens, LlamaTensor::LmHead}) {
            if (llamaTensorElements(s, t) == 0)
                continue;
            const float* w = flat.data() + p.flatOffset(t);
            for (std::int64_t i = std::int64_t{17} * s.n_embd; i < std::int64_t{24} * s.n_embd; ++i)
                ASSERT_EQ(w[i], 0.0f) << kLlamaTensorNames[static_cast<int>(t)] << " " << i;
            EXPECT_NE(w[std::int64_t{16} * s.n_embd], 0.0f);
        }
        for (const UnitLayout& u : p.units)
            for (std::int64_t i = u.elems; i < u.padded_elems; ++i)
                ASSERT_EQ(flat[static_cast<std::size_t>(u.offset + i)], 0.0f);
    }
}

TEST(LlamaInit, IsIndependentOfPadMultiple) {
    const ModelShape s = test::smallLlamaShape({.tied = false, .qkv_bias = true});
    const ParamLayout p1 = makeParamLayout(s, 1);
    std::vector<float> ref;
    initAllUnits(p1, 7, ref);
    for (int n = 2; n <= 4; ++n) {
        const ParamLayout pn = makeParamLayout(s, n);
        std::vector<float> flat;
        initAllUnits(pn, 7, flat);
        for (int ti = 0; ti < kLlamaTensorCount; ++ti) {
            const auto t = static_cast<LlamaTensor>(ti);
            const bool perLayer = llamaTensorRole(t) == UnitRole::Block;
            for (int l = 0; l < (perLayer ? s.n_layer : 1); ++l)
                ASSERT_EQ(std::memcmp(ref.data() + p1.flatOffset(t, l),
                                      flat.data() + pn.flatOffset(t, l),
                                      llamaTensorElements(s, t) * sizeof(float)),
                          0)
                    << "N=" << n << " " << kLlamaTensorNames[ti] << " layer " << l;
        }
    }
}

TEST(LlamaInit, SeedChangesValues) {
    const ModelShape s = *findModelPreset("llama-nano");
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
