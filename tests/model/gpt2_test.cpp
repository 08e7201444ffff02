// The GPT-2 model through the CPU kernels: loss at init, agreement with a double
// reference, the UnitAccess call contract, accumulation, training, and the ledger.
#include "compute_ops_check.h"
#include "model_test_util.h"
#include "reference_gpt2.h"
#include "test_unit_access.h"

#include "runtime/model/family.h"
#include "runtime/model/model_flops.h"
#include "runtime/model/unit_calls.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>

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

// With either attention kernel (the reference computes attention one way, in double).
TEST(Gpt2, ForwardMatchesDoubleReference) {
    for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash}) {
        ModelShape s = nanoShape();
        s.attention = a;
        auto k = makeCpuKernels(1);
        MemoryLedger ledger;
        const int B = 2, T = 16;
        Gpt2 model(s, B, T, *k, ledger);
        FlatUnitAccess access(makeParamLayout(s, 2));
        randomParams(access.layout(), 5, access.paramsFlat());
        const auto in = randomTokens(B * T, s.vocab_size, 3),
                   tg = randomTokens(B * T, s.vocab_size, 4);
        const float loss = model.forward(in.data(), tg.data(), access);
        const std::vector<double> p(access.paramsFlat().begin(), access.paramsFlat().end());
        const double ref = test::referenceLoss(access.layout(), p, in, tg, B, T);
        EXPECT_NEAR(loss, ref, 1e-5 * ref) << attentionKernelName(a);
        // Random weights: far from ln V, so the comparison means something.
        EXPECT_GT(std::abs(ref - std::log(256.0)), 0.1);
    }
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

// The shape with the given attention kernel.
ModelShape withAttention(ModelShape s, AttentionKernel a) {
    s.attention = a;
    return s;
}

TEST(Gpt2, LedgerCountsExactlyTheActivationFootprint) {
    for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
            for (auto [preset, B, T] : {std::tuple{"nano", 3, 17}, std::tuple{"micro", 2, 128}}) {
                const ModelShape s = withAttention(*findModelPreset(preset), a);
                auto k = makeCpuKernels(1);
                MemoryLedger ledger;
                {
                    Gpt2 model(s, B, T, *k, ledger, r);
                    EXPECT_EQ(ledger.current()[MemCategory::Activations],
                              activationFootprint(s, B, T, r).total(s.n_layer))
                        << preset << " " << recomputeName(r) << " " << attentionKernelName(a);
                    EXPECT_EQ(ledger.current().total(), ledger.current()[MemCategory::Activations]);
                }
                EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
            }
}

// Recomputation runs the same kernels on the same inputs, so the losses and the
// accumulated gradients of two micro-batches are bit-identical to keeping everything;
// ZeRO-3-like gathered temporaries (NaN after release) show that the recompute uses
// the unit's parameters only while they are held. With either attention kernel: the
// selective mode recomputes the standard attention core (its probabilities are not kept).
TEST(Gpt2, RecomputeGivesBitIdenticalLossesAndGradients) {
    for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
        for (auto [preset, B, T] : {std::tuple{"nano", 3, 32}, std::tuple{"micro", 2, 64}})
            for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                const ModelShape s = withAttention(*findModelPreset(preset), a);
                const std::string what = std::string(preset) + " " + std::string(recomputeName(r)) +
                                         " " + std::string(attentionKernelName(a));
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
                    EXPECT_EQ(l1, l2) << what << " micro " << micro;
                }
                EXPECT_EQ(gathered.badReleases(), 0);
                EXPECT_EQ(std::memcmp(flat.gradsFlat().data(), gathered.gradsFlat().data(),
                                      flat.gradsFlat().size() * sizeof(float)),
                          0)
                    << what;
            }
}

// Flash attention is the same model as the standard kernels: over two accumulated
// micro-batches in every recompute mode, the losses agree to fp32 rounding and so does
// every gradient (the two kernels sum the same products in different orders; the bar is
// the kernels' own, 1e-4 of the largest gradient). T = 130 crosses the flash kernel's
// 64-row tiles and its diagonal strips; T = 1 is a single key.
TEST(Gpt2, FlashAttentionMatchesStandardLossesAndGradients) {
    for (auto [preset, B, T] : {std::tuple{"nano", 3, 33}, std::tuple{"micro", 2, 128},
                                std::tuple{"mini", 1, 130}, std::tuple{"nano", 2, 1}})
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            const ModelShape s = *findModelPreset(preset);
            const std::string what = std::string(preset) + " T=" + std::to_string(T) + " " +
                                     std::string(recomputeName(r));
            auto k = makeCpuKernels(1);
            MemoryLedger ledger;
            Gpt2 standard(s, B, T, *k, ledger, r);
            Gpt2 flash(withAttention(s, AttentionKernel::Flash), B, T, *k, ledger, r);
            FlatUnitAccess a(makeParamLayout(s, 1)), b(makeParamLayout(s, 1));
            randomParams(a.layout(), 51, a.paramsFlat());
            b.paramsFlat() = a.paramsFlat();
            for (int micro = 0; micro < 2; ++micro) {
                const auto in = randomTokens(B * T, s.vocab_size, 60 + micro),
                           tg = randomTokens(B * T, s.vocab_size, 70 + micro);
                const float l1 = standard.forward(in.data(), tg.data(), a);
                standard.backward(in.data(), tg.data(), a, 1.0f);
                const float l2 = flash.forward(in.data(), tg.data(), b);
                flash.backward(in.data(), tg.data(), b, 1.0f);
                EXPECT_NEAR(l2, l1, 1e-5 * std::abs(l1)) << what << " micro " << micro;
            }
            double maxAbs = 0.0, maxDiff = 0.0;
            for (std::size_t i = 0; i < a.gradsFlat().size(); ++i) {
                maxAbs = std::max(maxAbs, double(std::abs(a.gradsFlat()[i])));
                maxDiff = std::max(maxDiff, double(std::abs(a.gradsFlat()[i] - b.gradsFlat()[i])));
            }
            EXPECT_GT(maxAbs, 1e-3) << what;
            EXPECT_LE(maxDiff, 1e-4 * maxAbs) << what;
        }
}

// The kernels the step-time model prices (family.h's compute_ops) name the attention
// kernel the network runs, with its FLOPs: one causal tile product over all heads is
// B T^2 C; the standard forward does two and its backward four, flash's backward five
// (it recomputes the scores); selective recomputes the standard attention forward, never
// flash's (its lse is kept). The hardware FLOPs are the model FLOPs plus exactly what
// these lists run beyond them: the recompute piece and flash's fifth product, per layer.
TEST(Gpt2, ComputeOpsNameTheAttentionKernelAndHardwareFlopsFollowThem) {
    const int B = 2, T = 96;
    for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            const ModelShape s = withAttention(*findModelPreset("micro"), a);
            const std::string what =
                std::string(attentionKernelName(a)) + " " + std::string(recomputeName(r));
            const bool flash = a == AttentionKernel::Flash;
            const double product = double(B) * T * T * s.n_embd;
            const auto& ops = familyOf(s).compute_ops;
            auto attentionWork = [&](ModelCompute c, OpKind kind) {
                double w = 0;
                for (const KernelOp& op : ops(c, s, B, T, r)) {
                    EXPECT_NE(op.kind,
                              flash ? OpKind::AttentionForward : OpKind::FlashAttentionForward)
                        << what;
                    if (op.kind == kind)
                        w += op.work;
                }
                return w;
            };
            const OpKind fwd = flash ? OpKind::FlashAttentionForward : OpKind::AttentionForward;
            const OpKind bwd = flash ? OpKind::FlashAttentionBackward : OpKind::AttentionBackward;
            EXPECT_EQ(attentionWork(ModelCompute::BlockForward, fwd), 2 * product) << what;
            EXPECT_EQ(attentionWork(ModelCompute::BlockBackward, bwd), (flash ? 5 : 4) * product)
                << what;
            const bool recomputesAttention =
                r == Recompute::Full || (r == Recompute::Selective && !flash);
            EXPECT_EQ(attentionWork(ModelCompute::BlockRecompute, fwd),
                      recomputesAttention ? 2 * product : 0.0)
                << what;
            double again = (flash ? 1 : 0) * product;
            for (const KernelOp& op : ops(ModelCompute::BlockRecompute, s, B, T, r))
                if (opCountsFlops(op.kind))
                    again += op.work;
            EXPECT_NEAR(hardwareFlopsPerToken(s, T, r) - modelFlopsPerToken(s, T),
                        s.n_layer * again / (B * T), 1e-6 * modelFlopsPerToken(s, T))
                << what;
        }
    // Model FLOPs (what MFU divides by) do not depend on the kernel.
    const ModelShape s = *findModelPreset("micro");
    EXPECT_EQ(modelFlopsPerToken(withAttention(s, AttentionKernel::Flash), 128),
              modelFlopsPerToken(s, 128));
}

// The description's compute_ops are the kernels the network runs, call by call
// (compute_ops_check.h), with either attention kernel in every recompute mode: the
// selective recompute's attention forward and flash's kernels included.
TEST(Gpt2, ComputeOpsAreTheKernelsTheNetworkRuns) {
    for (const char* preset : {"nano", "micro"})
        for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
            for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                SCOPED_TRACE(std::string(preset) + " " + std::string(attentionKernelName(a)) + " " +
                             std::string(recomputeName(r)));
                test::checkComputeOps(withAttention(*findModelPreset(preset), a), r);
            }
}

TEST(Gpt2, RecomputeKeepsTheUnitAccessOrder) {
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    const auto in = randomTokens(8, 256, 1), tg = randomTokens(8, 256, 2);
    std::vector<std::vector<std::string>> logs;
    for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
        for (Recompute r : {Recompute::None, Recompute::Full, Recompute::Selective}) {
            Gpt2 model(withAttention(nanoShape(), a), 1, 8, *k, ledger, r);
            FlatUnitAccess access(makeParamLayout(nanoShape(), 1));
            test::initAllUnits(access.layout(), 1, access.paramsFlat());
            model.forward(in.data(), tg.data(), access);
            model.backward(in.data(), tg.data(), access, 1.0f);
            logs.push_back(access.log());
        }
    for (std::size_t i = 1; i < logs.size(); ++i)
        EXPECT_EQ(logs[i], logs[0]) << i;
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
