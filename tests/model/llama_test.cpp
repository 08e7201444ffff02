// The Llama network's contracts beyond its gradient (llama_gradient_test.cpp): recompute
// modes bit-identical to none, ZeRO-3-like temporaries, the shapes it refuses, its arena
// against the closed form of docs/model.md, and its description's FLOPs and kernels
// against each other.
#include "llama_test_util.h"
#include "model_test_util.h"
#include "test_unit_access.h"

#include "kernels/rope.h"
#include "runtime/model/family.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>

namespace zerolab {
namespace {

struct TrainResult {
    float loss = 0;
    std::vector<float> grads;
};

// Two micro-batches accumulated (grad_scale 0.5 each), as the engine runs them.
template <typename Access>
TrainResult train(const ModelShape& s, Recompute r, int pad, int B = 2, int T = 7) {
    auto k = makeCpuKernels(2);
    MemoryLedger ledger;
    Llama model(s, B, T, *k, ledger, r);
    Access access(makeParamLayout(s, pad));
    test::randomLlamaParams(access.layout(), 41, access.paramsFlat());
    TrainResult out;
    for (std::uint32_t step = 0; step < 2; ++step) {
        const auto in = test::randomTokens(B * T, s.padded_vocab_size, 42 + step);
        const auto tg = test::randomTokens(B * T, s.vocab_size, 52 + step);
        out.loss += model.forward(in.data(), tg.data(), access);
        model.backward(in.data(), tg.data(), access, 0.5f);
    }
    out.grads = access.gradsFlat();
    return out;
}

bool bitIdentical(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(Llama, RecomputeModesAreBitIdenticalToNone) {
    for (bool tied : {true, false})
        for (int kv : {4, 2, 1})
            for (bool bias : {false, true}) {
                const ModelShape s =
                    test::smallLlamaShape({.n_kv_head = kv, .tied = tied, .qkv_bias = bias});
                SCOPED_TRACE("tied " + std::to_string(tied) + " kv " + std::to_string(kv) +
                             " bias " + std::to_string(bias));
                const TrainResult none = train<test::FlatUnitAccess>(s, Recompute::None, 1);
                ASSERT_TRUE(std::isfinite(none.loss));
                for (Recompute r : {Recompute::Selective, Recompute::Full}) {
                    const TrainResult got = train<test::FlatUnitAccess>(s, r, 1);
                    EXPECT_EQ(std::memcmp(&got.loss, &none.loss, sizeof(float)), 0)
                        << recomputeName(r);
                    EXPECT_TRUE(bitIdentical(got.grads, none.grads)) << recomputeName(r);
                }
            }
}

// Like ZeRO-3: params(u) is a copy poisoned with NaN on release(u), in a padded layout. A
// network that read a unit after releasing it would differ (NaN); the padded layout's
// gradients, unit by unit, equal the unpadded ones.
TEST(Llama, GatheredTemporariesGiveTheSameResult) {
    for (bool tied : {true, false})
        for (Recompute r : {Recompute::None, Recompute::Full}) {
            const ModelShape s = test::smallLlamaShape({.n_kv_head = 2, .tied = tied});
            SCOPED_TRACE("tied " + std::to_string(tied) + " " + std::string(recomputeName(r)));
            const TrainResult flat = train<test::FlatUnitAccess>(s, r, 1);
            const TrainResult gathered = train<test::GatheringUnitAccess>(s, r, 3);
            EXPECT_EQ(std::memcmp(&flat.loss, &gathered.loss, sizeof(float)), 0);
            const ParamLayout one = makeParamLayout(s, 1), three = makeParamLayout(s, 3);
            for (int u = 0; u < one.unitCount(); ++u)
                EXPECT_EQ(std::memcmp(flat.grads.data() + one.units[u].offset,
                                      gathered.grads.data() + three.units[u].offset,
                                      one.units[u].elems * sizeof(float)),
                          0)
                    << "unit " << u;
        }
}

TEST(Llama, RefusesShapesItCannotRun) {
    auto k = makeCpuKernels(1);
    MemoryLedger ledger;
    auto message = [&](const ModelShape& s) {
        try {
            makeNetwork(s, 1, 4, *k, ledger);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    ModelShape s = test::smallLlamaShape();
    s.attention = AttentionKernel::Standard;
    EXPECT_NE(message(s).find("flash attention only"), std::string::npos) << message(s);
    EXPECT_THROW(activationFootprint(s, 1, 4), std::invalid_argument);
    s = test::smallLlamaShape({.n_kv_head = 3});
    EXPECT_NE(message(s).find("n_kv_head = 3"), std::string::npos) << message(s);
    s = test::smallLlamaShape();
    s.head_dim = 3;
    EXPECT_NE(message(s).find("head_dim = 3"), std::string::npos) << message(s);
    s = test::smallLlamaShape();
    s.ffn_dim = 0;
    EXPECT_NE(message(s).find("ffn_dim = 0"), std::string::npos) << message(s);
    EXPECT_NE(message(test::smallLlamaShape()).find("no error"), std::string::npos);
    EXPECT_THROW(makeNetwork(test::smallLlamaShape(), 1, 9, *k, ledger), std::invalid_argument);
    EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
}

// docs/model.md's table: with every size a multiple of 16 floats (no alignment padding),
// per layer none keeps 4 BTC + 2 BTQ + 2 BTKV + 3 BTF + 2 BT + B NH T floats, selective
// 2 BTC + BTF fewer, full BTC; the rest is the closed form below.
TEST(Llama, ArenaIsTheClosedFormOfTheDocs) {
    const ModelShape s = *findModelPreset("llama-micro");
    const std::int64_t B = 4, T = 64, C = s.n_embd, NH = s.n_head, hd = s.headDim();
    const std::int64_t Q = NH * hd, KV = s.kvHeads() * hd, F = s.ffn_dim, BT = B * T;
    const std::int64_t Vp = s.padded_vocab_size;
    const std::int64_t none = 4 * BT * C + 2 * BT * Q + 2 * BT * KV + 3 * BT * F + 2 * BT + BT * NH;
    const std::int64_t shared = 2 * BT + T * hd + 3 * BT * C + BT * C + BT + 2 * BT * Vp + BT +
                                std::max(BT * F, BT * (Q + 2 * KV)) + std::max(BT * F, BT * Q) +
                                BT * F + BT * NH;
    auto bytes = [](std::int64_t floats) { return static_cast<long long>(floats * 4); };
    const ActivationFootprint n = activationFootprint(s, B, T, Recompute::None);
    EXPECT_EQ(n.per_layer_bytes, bytes(none));
    EXPECT_EQ(n.other_bytes, bytes(shared));
    const ActivationFootprint sel = activationFootprint(s, B, T, Recompute::Selective);
    EXPECT_EQ(sel.per_layer_bytes, bytes(none - 2 * BT * C - BT * F));
    EXPECT_EQ(sel.other_bytes, bytes(shared + 2 * BT * C));
    const ActivationFootprint full = activationFootprint(s, B, T, Recompute::Full);
    EXPECT_EQ(full.per_layer_bytes, bytes(BT * C));
    EXPECT_EQ(full.other_bytes, bytes(shared + none - BT * C - BT * F));
    // The RoPE table is the kernels' (kernels/rope.h): T rows of head_dim floats.
    EXPECT_EQ(makeLlamaActivationLayout(s, B, T).rope_floats,
              static_cast<std::int64_t>(ropeTableFloats(static_cast<int>(T), s.headDim())));
}

// The matmul FLOPs the kernels list runs in a forward are 2 x matmul params per token, what
// the model-FLOPs convention counts; the attention's are 2 T NH hd per token and layer at
// most (causal: B T^2 NH hd x 2 over B T tokens). Backward: twice the matmul forward.
TEST(Llama, DescriptionFlopsAgreeWithItsKernels) {
    for (const char* name : {"llama-nano", "llama-micro", "qwen2.5-0.5b", "llama-3.1-8b"}) {
        SCOPED_TRACE(name);
        const ModelShape s = *findModelPreset(name);
        const ModelFamily& f = familyOf(s);
        const int B = 2, T = 32, L = s.n_layer;
        const ParamLayout layout = makeParamLayout(s, 1);
        double fwdMatmul = 0, bwdMatmul = 0, attnFwd = 0, attnBwd = 0;
        for (const UnitCall& c : f.unit_calls(layout, Recompute::None))
            for (const KernelOp& op : f.compute_ops(c.then, s, B, T, Recompute::None)) {
                if (op.kind == OpKind::MatmulForward)
                    fwdMatmul += op.work;
                if (op.kind == OpKind::MatmulBackward)
                    bwdMatmul += op.work;
                if (op.kind == OpKind::FlashAttentionForward)
                    attnFwd += op.work;
                if (op.kind == OpKind::FlashAttentionBackward)
                    attnBwd += op.work;
            }
        const double tokens = B * T;
        const double attention = 3.0 * L * 2.0 * T * s.n_head * s.headDim(); // 6 L T NH hd
        const double matmulModel = f.model_flops_per_token(s, T) - attention;
        // The convention counts q/k/v biases with their Linear; the matmul kernels' work
        // is 2 m k n without them.
        const double biases =
            s.qkv_bias ? L * static_cast<double>((s.n_head + 2 * s.kvHeads()) * s.headDim()) : 0;
        EXPECT_DOUBLE_EQ(fwdMatmul / tokens * 3 + 6 * biases, matmulModel);
        EXPECT_DOUBLE_EQ(bwdMatmul, 2 * fwdMatmul);
        EXPECT_DOUBLE_EQ(attnFwd / tokens, L * 2.0 * T * s.n_head * s.headDim());
        EXPECT_DOUBLE_EQ(attnBwd, 2.5 * attnFwd);
        // Modules: three times their forward is the model FLOPs; their params are psi.
        double forward = 0, params = 0;
        for (const ModuleFlops& m : f.module_forward_flops(s, T)) {
            forward += m.forward_flops_per_token;
            params += m.params;
        }
        EXPECT_DOUBLE_EQ(3 * forward, f.model_flops_per_token(s, T));
        EXPECT_DOUBLE_EQ(params, static_cast<double>(paramCount(s)));
        EXPECT_EQ(f.hardware_flops_per_token(s, T, Recompute::Selective),
                  f.model_flops_per_token(s, T));
        // Full recompute: the BlockRecompute kernels' matmuls and attention, per token.
        double recomputed = 0;
        for (const KernelOp& op :
             f.compute_ops(ModelCompute::BlockRecompute, s, B, T, Recompute::Full))
            if (opCountsFlops(op.kind))
                recomputed += op.work;
        EXPECT_DOUBLE_EQ(f.hardware_flops_per_token(s, T, Recompute::Full) -
                             f.model_flops_per_token(s, T),
                         L * recomputed / tokens + 2 * biases);
        EXPECT_GE(f.largest_module_params(s), static_cast<double>(s.padded_vocab_size) * s.n_embd);
    }
}

// With a tied head the lm head's matmul reads the embedding; untied, lm_head lives in the
// final unit and the embedding's is only the lookup.
TEST(Llama, UntiedHeadLivesInTheFinalUnit) {
    const ModelShape tied = *findModelPreset("llama-nano"),
                     untied = *findModelPreset("llama-micro");
    ASSERT_TRUE(tied.tied_head);
    ASSERT_FALSE(untied.tied_head);
    const ParamLayout lt = makeParamLayout(tied, 1), lu = makeParamLayout(untied, 1);
    EXPECT_EQ(lt.units.back().elems, tied.n_embd);
    EXPECT_EQ(lu.units.back().elems,
              untied.n_embd + std::int64_t{untied.padded_vocab_size} * untied.n_embd);
}

} // namespace
} // namespace zerolab
