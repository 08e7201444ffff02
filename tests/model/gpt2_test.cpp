// The GPT-2 model through the CPU kernels: loss at init, agreement with a double
// reference, the UnitAccess call contract, accumulation, training, and the ledger.
#include "model_test_util.h"
#include "reference_gpt2.h"
#include "test_unit_access.h"

#include "runtime/model/unit_calls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace zerolab {
namespace {

using test::FlatUnitAccess;
using test::GatheringUnitAccess;
using test::nanoShape;
using test::randomParams;
using test::randomTokens;

TEST(Gpt2, LossAtInitIsNearLnV) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const int B = 4, T = s.seq_len;
    Gpt2 model(s, B, T, *k, ledger);
    FlatUnitAccess access(makeParamLayout(s, 1));
    test::initAllUnits(access.layout(), 1234, access.paramsFlat());
    const auto in = randomTokens(B * T, s.vocab_size, 1), tg = randomTokens(B * T, s.vocab_size, 2);
    const float loss = model.forward(in.data(), tg.data(), access);
    EXPECT_NEAR(loss, std::log(double(s.vocab_size)), 0.05);
}

TEST(Gpt2, ForwardMatchesDoubleReference) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const int B = 2, T = 16;
    Gpt2 model(s, B, T, *k, ledger);
    FlatUnitAccess access(makeParamLayout(s, 2));
    randomParams(access.layout(), 5, access.paramsFlat());
    const auto in = randomTokens(B * T, s.vocab_size, 3), tg = randomTokens(B * T, s.vocab_size, 4);
    const float loss = model.forward(in.data(), tg.data(), access);
    const std::vector<double> p(access.paramsFlat().begin(), access.paramsFlat().end());
    const double ref = test::referenceLoss(access.layout(), p, in, tg, B, T);
    EXPECT_NEAR(loss, ref, 1e-5 * ref);
    // Random weights: far from ln V, so the comparison means something.
    EXPECT_GT(std::abs(ref - std::log(256.0)), 0.1);
}

TEST(Gpt2, CallsUnitAccessInTheDocumentedOrder) {
    const ModelShape s = nanoShape(); // L = 2: units 0, 1, 2, 3
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    Gpt2 model(s, 1, 8, *k, ledger);
    FlatUnitAccess access(makeParamLayout(s, 1));
    test::initAllUnits(access.layout(), 1, access.paramsFlat());
    const auto in = randomTokens(8, 256, 1), tg = randomTokens(8, 256, 2);
    model.forward(in.data(), tg.data(), access);
    EXPECT_EQ(access.log(), (std::vector<std::string>{"p0", "r0", "p1", "r1", "p2", "r2", "p3",
                                                      "r3", "p0", "r0"}));
    access.log().clear();
    model.backward(in.data(), tg.data(), access, 1.0f);
    EXPECT_EQ(access.log(), (std::vector<std::string>{"p3", "p0", "g0", "g3", "r0", "r3", "ready3",
                                                      "p2", "g2", "r2", "ready2", "p1", "g1", "r1",
                                                      "ready1", "g0", "ready0"}));
    // The same order as data (unit_calls.h), which the step-time model replays.
    std::vector<std::string> both = {"p0", "r0", "p1", "r1", "p2", "r2", "p3", "r3", "p0", "r0"};
    both.insert(both.end(), access.log().begin(), access.log().end());
    std::vector<std::string> data;
    for (const UnitCall& c : modelUnitCalls(access.layout(), Recompute::Full)) {
        static const char* const kNames[] = {"p", "r", "g", "ready", nullptr};
        if (const char* name = kNames[static_cast<int>(c.kind)])
            data.push_back(name + std::to_string(c.unit));
    }
    EXPECT_EQ(data, both);
}

// A ZeRO-3-like access (fresh copies, NaN on release, N = 3 padding) gives bit-identical
// results to replicated flat buffers: the model holds no parameter pointer across release.
TEST(Gpt2, GatheredTemporariesGiveIdenticalResults) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const int B = 2, T = 32;
    Gpt2 model(s, B, T, *k, ledger);
    FlatUnitAccess flat(makeParamLayout(s, 3));
    GatheringUnitAccess gathered(makeParamLayout(s, 3));
    randomParams(flat.layout(), 9, flat.paramsFlat());
    gathered.paramsFlat() = flat.paramsFlat();
    const auto in = randomTokens(B * T, 256, 5), tg = randomTokens(B * T, 256, 6);

    const float l1 = model.forward(in.data(), tg.data(), flat);
    model.backward(in.data(), tg.data(), flat, 1.0f);
    const float l2 = model.forward(in.data(), tg.data(), gathered);
    model.backward(in.data(), tg.data(), gathered, 1.0f);
    EXPECT_EQ(l1, l2);
    EXPECT_EQ(gathered.badReleases(), 0);
    EXPECT_EQ(gathered.liveCount(), 0u);
    ASSERT_EQ(flat.gradsFlat().size(), gathered.gradsFlat().size());
    EXPECT_EQ(std::memcmp(flat.gradsFlat().data(), gathered.gradsFlat().data(),
                          flat.gradsFlat().size() * sizeof(float)),
              0);
    for (float g : gathered.gradsFlat())
        ASSERT_FALSE(std::isnan(g));
}

TEST(Gpt2, BackwardAccumulatesAndScales) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const int B = 2, T = 16;
    Gpt2 model(s, B, T, *k, ledger);
    FlatUnitAccess once(makeParamLayout(s, 1)), twice(makeParamLayout(s, 1));
    randomParams(once.layout(), 11, once.paramsFlat());
    twice.paramsFlat() = once.paramsFlat();
    const auto in = randomTokens(B * T, 256, 7), tg = randomTokens(B * T, 256, 8);
    model.forward(in.data(), tg.data(), once);
    model.backward(in.data(), tg.data(), once, 2.0f);
    model.forward(in.data(), tg.data(), twice);
    model.backward(in.data(), tg.data(), twice, 1.0f);
    model.backward(in.data(), tg.data(), twice, 1.0f);
    double maxAbs = 0.0, maxDiff = 0.0;
    for (std::size_t i = 0; i < once.gradsFlat().size(); ++i) {
        maxAbs = std::max(maxAbs, double(std::abs(once.gradsFlat()[i])));
        maxDiff = std::max(maxDiff, double(std::abs(once.gradsFlat()[i] - twice.gradsFlat()[i])));
    }
    EXPECT_GT(maxAbs, 1e-3);
    EXPECT_LE(maxDiff, 1e-5 * maxAbs);
}

// AdamW (the kernels' op) on one repeated batch: the model must be able to fit it.
TEST(Gpt2, TrainingOnARepeatedBatchLowersTheLoss) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const int B = 4, T = 32;
    Gpt2 model(s, B, T, *k, ledger);
    FlatUnitAccess access(makeParamLayout(s, 1));
    test::initAllUnits(access.layout(), 3, access.paramsFlat());
    // Structured data: targets are the next token of a short repeating pattern.
    std::vector<int> in(B * T), tg(B * T);
    for (int i = 0; i < B * T; ++i) {
        in[i] = (i * 7) % 13;
        tg[i] = ((i + 1) * 7) % 13;
    }
    const std::size_t n = access.paramsFlat().size();
    std::vector<float> m(n), v(n);
    AdamParams hp;
    hp.lr = 3e-3f;
    hp.weightDecay = 0.0f;
    float first = 0.0f, last = 0.0f;
    for (int step = 1; step <= 30; ++step) {
        std::fill(access.gradsFlat().begin(), access.gradsFlat().end(), 0.0f);
        last = model.forward(in.data(), tg.data(), access);
        if (step == 1)
            first = last;
        model.backward(in.data(), tg.data(), access, 1.0f);
        hp.step = step;
        k->adamw(access.paramsFlat().data(), access.gradsFlat().data(), m.data(), v.data(), n, hp);
    }
    EXPECT_NEAR(first, std::log(256.0), 0.1);
    EXPECT_LT(last, 0.5f * first);
}

TEST(Gpt2, LedgerCountsExactlyTheActivationFootprint) {
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
        for (auto [preset, B, T] : {std::tuple{"nano", 3, 17}, std::tuple{"micro", 2, 128}}) {
            const ModelShape s = *findModelPreset(preset);
            auto k = makeCpuKernels(1);
            MemoryLedger ledger;
            {
                Gpt2 model(s, B, T, *k, ledger, r);
                EXPECT_EQ(ledger.current()[MemCategory::Activations],
                          activationFootprint(s, B, T, r).total(s.n_layer))
                    << preset << " " << recomputeName(r);
                EXPECT_EQ(ledger.current().total(), ledger.current()[MemCategory::Activations]);
            }
            EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
        }
}

// Recomputation runs the same kernels on the same inputs, so the losses and the
// accumulated gradients of two micro-batches are bit-identical to keeping everything;
// ZeRO-3-like gathered temporaries (NaN after release) show that the recompute uses
// the unit's parameters only while they are held.
TEST(Gpt2, RecomputeGivesBitIdenticalLossesAndGradients) {
    for (auto [preset, B, T] : {std::tuple{"nano", 3, 32}, std::tuple{"micro", 2, 64}})
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            const ModelShape s = *findModelPreset(preset);
            auto k = makeCpuKernels(2);
            MemoryLedger ledger;
            Gpt2 keep(s, B, T, *k, ledger), again(s, B, T, *k, ledger, r);
            FlatUnitAccess flat(makeParamLayout(s, 3));
            GatheringUnitAccess gathered(makeParamLayout(s, 3));
            randomParams(flat.layout(), 21, flat.paramsFlat());
            gathered.paramsFlat() = flat.paramsFlat();
            for (int micro = 0; micro < 2; ++micro) {
                const auto in = randomTokens(B * T, s.vocab_size, 30 + micro),
                           tg = randomTokens(B * T, s.vocab_size, 40 + micro);
                const float l1 = keep.forward(in.data(), tg.data(), flat);
                keep.backward(in.data(), tg.data(), flat, 0.5f);
                const float l2 = again.forward(in.data(), tg.data(), gathered);
                again.backward(in.data(), tg.data(), gathered, 0.5f);
                EXPECT_EQ(l1, l2) << preset << " " << recomputeName(r) << " micro " << micro;
            }
            EXPECT_EQ(gathered.badReleases(), 0);
            EXPECT_EQ(std::memcmp(flat.gradsFlat().data(), gathered.gradsFlat().data(),
                                  flat.gradsFlat().size() * sizeof(float)),
                      0)
                << preset << " " << recomputeName(r);
        }
}

TEST(Gpt2, RecomputeKeepsTheUnitAccessOrder) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const auto in = randomTokens(8, 256, 1), tg = randomTokens(8, 256, 2);
    std::vector<std::vector<std::string>> logs;
    for (Recompute r : {Recompute::None, Recompute::Full, Recompute::Selective}) {
        Gpt2 model(s, 1, 8, *k, ledger, r);
        FlatUnitAccess access(makeParamLayout(s, 1));
        test::initAllUnits(access.layout(), 1, access.paramsFlat());
        model.forward(in.data(), tg.data(), access);
        model.backward(in.data(), tg.data(), access, 1.0f);
        logs.push_back(access.log());
    }
    EXPECT_EQ(logs[1], logs[0]);
    EXPECT_EQ(logs[2], logs[0]);
}

TEST(Gpt2, RejectsTLongerThanTheContext) {
    const ModelShape s = nanoShape();
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    EXPECT_THROW(Gpt2(s, 1, s.seq_len + 1, *k, ledger), std::invalid_argument);
    EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
}

} // namespace
} // namespace zerolab
