// The whole Llama network against an independent double-precision reference of HF's
// LlamaForCausalLM (reference_llama.cpp): the loss, and the gradient against central
// finite differences of the reference loss on a sample of every parameter tensor of every
// unit (the kernels are fp32, so the reference carries the precision). Over tied and
// untied heads, GQA ratios 1, 2 and 4, q/k/v biases on and off, RoPE scalings, a padded
// vocabulary and layout, and every recompute mode.
#include "llama_test_util.h"
#include "model_test_util.h"
#include "reference_llama.h"
#include "test_unit_access.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace zerolab {
namespace {

struct GradCase {
    std::string name;
    ModelShape shape;
    int B = 2;
    int T = 6;
    int pad = 1; // the engine's N: gradients land in a padded layout
    float grad_scale = 1.0f;
    Recompute recompute = Recompute::None;
};

void checkGradient(const GradCase& c) {
    SCOPED_TRACE(c.name);
    const ModelShape& s = c.shape;
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    Llama model(s, c.B, c.T, *k, ledger, c.recompute);
    test::FlatUnitAccess access(makeParamLayout(s, c.pad));
    const ParamLayout& layout = access.layout();
    test::randomLlamaParams(layout, 31, access.paramsFlat());
    // Inputs may use the padded vocabulary rows; targets never do.
    const auto in = test::randomTokens(c.B * c.T, s.padded_vocab_size, 32);
    const auto tg = test::randomTokens(c.B * c.T, s.vocab_size, 33);
    const float loss = model.forward(in.data(), tg.data(), access);
    model.backward(in.data(), tg.data(), access, c.grad_scale);

    std::vector<double> p(access.paramsFlat().begin(), access.paramsFlat().end());
    const double ref = test::referenceLlamaLoss(layout, p, in, tg, c.B, c.T);
    EXPECT_NEAR(loss, ref, 1e-5 * std::abs(ref));

    std::mt19937 rng(34);
    double errSq = 0.0, refSq = 0.0;
    int checked = 0, tensors = 0;
    auto check = [&](std::int64_t flat, const std::string& what) {
        constexpr double kEps = 1e-4;
        const double saved = p[flat];
        p[flat] = saved + kEps;
        const double up = test::referenceLlamaLoss(layout, p, in, tg, c.B, c.T);
        p[flat] = saved - kEps;
        const double down = test::referenceLlamaLoss(layout, p, in, tg, c.B, c.T);
        p[flat] = saved;
        const double fd = c.grad_scale * (up - down) / (2 * kEps);
        const double g = access.gradsFlat()[static_cast<std::size_t>(flat)];
        errSq += (g - fd) * (g - fd);
        refSq += fd * fd;
        ++checked;
        EXPECT_NEAR(g, fd, 1e-3 * std::abs(fd) + 2e-6) << what << " flat index " << flat;
    };
    for (const UnitLayout& u : layout.units)
        for (int ti = 0; ti < kLlamaTensorCount; ++ti) {
            const auto t = static_cast<LlamaTensor>(ti);
            const std::int64_t n = llamaTensorElements(s, t);
            if (!u.has(t) || n == 0)
                continue;
            ++tensors;
            std::uniform_int_distribution<std::int64_t> pick(0, n - 1);
            for (int i = 0; i < 5; ++i)
                check(u.offset + u.tensorOffset(t) + pick(rng),
                      "unit " + std::to_string(u.index) + " " + std::string(kLlamaTensorNames[ti]));
        }
    // The embedding rows of the inputs (tied: also the head's gradient).
    for (int i = 0; i < 4; ++i)
        check(layout.flatOffset(LlamaTensor::EmbedTokens) + std::int64_t{in[i]} * s.n_embd + i,
              "embed_tokens input row");
    // Gradients never land in the units' padding.
    for (const UnitLayout& u : layout.units)
        for (std::int64_t i = u.elems; i < u.padded_elems; ++i)
            EXPECT_EQ(access.gradsFlat()[static_cast<std::size_t>(u.offset + i)], 0.0f);
    // Every tensor the shape has: 9 per block without the biases, 12 with them, the
    // embedding, the norm and an untied lm_head.
    const int perBlock = s.qkv_bias ? 12 : 9;
    EXPECT_EQ(tensors, perBlock * s.n_layer + 2 + (s.tied_head ? 0 : 1));
    EXPECT_LT(std::sqrt(errSq / refSq), 1e-4);
}

ModelShape shape(int kv, bool tied, bool bias) {
    return test::smallLlamaShape({.n_kv_head = kv, .tied = tied, .qkv_bias = bias});
}

TEST(LlamaGradient, TiedGqa2WithoutBiases) {
    checkGradient({"tied gqa2", shape(2, true, false)});
}

TEST(LlamaGradient, UntiedMultiHeadWithBiases) {
    checkGradient({"untied mha bias", shape(4, false, true)});
}

TEST(LlamaGradient, TiedGqa4WithBiases) {
    checkGradient({"tied gqa4 (one kv head) bias", shape(1, true, true)});
}

TEST(LlamaGradient, UntiedGqa2WithoutBiases) {
    checkGradient({"untied gqa2", shape(2, false, false)});
}

// Vp > V (padded rows used as inputs, never targets), T < seq_len, a padded layout, a
// grad_scale, and Llama 3's rope_scaling at a small original context (hd = 4: one
// frequency in the interpolated band, one divided by the factor), then linear scaling.
TEST(LlamaGradient, PaddedVocabularyScaledLayoutAndLlama3Rope) {
    ModelShape s =
        test::smallLlamaShape({.n_kv_head = 2, .tied = true, .vocab = 17, .padded_vocab = 24});
    s.rope_theta = 500000.0;
    s.rope_scaling = {RopeScalingType::Llama3, 8.0, 1.0, 4.0, 16};
    checkGradient({"padded llama3", s, 3, 5, 3, 0.25f});
    s.tied_head = false;
    s.rope_scaling = {RopeScalingType::Linear, 2.0, 0.0, 0.0, 0};
    checkGradient({"padded untied linear rope", s, 2, 7, 4, 0.5f});
}

// The recompute modes compute the same gradient (their bit-identity: llama_test.cpp).
TEST(LlamaGradient, RecomputeModes) {
    checkGradient({"selective", shape(2, false, true), 2, 6, 1, 1.0f, Recompute::Selective});
    checkGradient({"full", shape(1, true, false), 2, 6, 2, 1.0f, Recompute::Full});
}

} // namespace
} // namespace zerolab
