// Parameter units (padding, offsets, psi) and the activation footprint arithmetic.
#include "runtime/model/activation_layout.h"
#include "runtime/model/gpt2/gpt2_activations.h"
#include "runtime/model/gpt2/gpt2_tensors.h"
#include "runtime/model/param_layout.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

TEST(ParamLayout, UnitsArePaddedBackToBackForEveryWorldSize) {
    for (const ModelPreset& preset : modelPresets()) {
        const ModelShape& s = preset.shape;
        for (int n = 1; n <= 4; ++n) {
            SCOPED_TRACE(std::string(preset.name) + " N=" + std::to_string(n));
            const ParamLayout p = makeParamLayout(s, n);
            ASSERT_EQ(p.unitCount(), s.n_layer + 2);
            EXPECT_EQ(p.total_elems, paramCount(s));
            EXPECT_EQ(p.pad_multiple, n);
            std::int64_t offset = 0, real = 0;
            for (const UnitLayout& u : p.units) {
                EXPECT_EQ(u.offset, offset);
                EXPECT_EQ(u.padded_elems % n, 0);
                EXPECT_GE(u.padded_elems, u.elems);
                EXPECT_LT(u.padded_elems - u.elems, n);
                offset += u.padded_elems;
                real += u.elems;
            }
            EXPECT_EQ(offset, p.padded_total);
            EXPECT_EQ(real, p.total_elems);
        }
    }
}

TEST(ParamLayout, UnitsHoldTheirTensorsInLlmcOrder) {
    const ModelShape s = *findModelPreset("micro");
    const ParamLayout p = makeParamLayout(s, 3);
    const UnitLayout& emb = p.units[0];
    EXPECT_EQ(emb.tensorOffset(Gpt2Tensor::Wte), 0);
    EXPECT_EQ(emb.tensorOffset(Gpt2Tensor::Wpe), gpt2TensorElements(s, Gpt2Tensor::Wte));
    EXPECT_FALSE(emb.has(Gpt2Tensor::Qkvw));
    EXPECT_EQ(emb.elems,
              gpt2TensorElements(s, Gpt2Tensor::Wte) + gpt2TensorElements(s, Gpt2Tensor::Wpe));
    for (int l = 0; l < s.n_layer; ++l) {
        const UnitLayout& b = p.units[p.blockUnit(l)];
        EXPECT_EQ(b.elems, blockParamCount(s));
        EXPECT_EQ(b.tensorOffset(Gpt2Tensor::Ln1w), 0);
        EXPECT_EQ(b.tensorOffset(Gpt2Tensor::Fcprojb),
                  b.elems - gpt2TensorElements(s, Gpt2Tensor::Fcprojb));
        EXPECT_FALSE(b.has(Gpt2Tensor::Wte));
        EXPECT_EQ(p.flatOffset(Gpt2Tensor::Qkvw, l),
                  b.offset + gpt2TensorElements(s, Gpt2Tensor::Ln1w) * 2);
    }
    const UnitLayout& fin = p.units[p.finalNormUnit()];
    EXPECT_EQ(fin.elems, 2 * s.n_embd);
    EXPECT_EQ(p.flatOffset(Gpt2Tensor::Lnfb), fin.offset + s.n_embd);
}

TEST(ParamLayout, RejectsBadArguments) {
    EXPECT_THROW(makeParamLayout(*findModelPreset("nano"), 0), std::invalid_argument);
    EXPECT_THROW(makeParamLayout(ModelShape{}, 1), std::invalid_argument);
}

TEST(ActivationFootprint, MatchesTheArenaLayout) {
    const ModelShape s = *findModelPreset("micro");
    const int B = 8, T = 128;
    const Gpt2ActivationLayout a = makeGpt2ActivationLayout(s, B, T);
    const ActivationFootprint f = activationFootprint(s, B, T);
    EXPECT_EQ(f.total(s.n_layer), a.total_floats * 4);
    EXPECT_EQ(f.per_layer_bytes, a.layer_stride * 4);
    // Per layer: 13 (B,T,C) + ... : ln1, qkv(3), atty, residual2, ln2, fch(4), fch_gelu(4),
    // residual3 = 16 BTC, 4 BT statistics and one (B,NH,T,T) att; all sizes here are multiples
    // of 16 floats, so no alignment padding.
    const long long BT = B * T, BTC = BT * s.n_embd, att = BT * s.n_head * T;
    EXPECT_EQ(f.per_layer_bytes, 4 * (16 * BTC + 4 * BT + att));
    // Other: tokens 2BT, encoded, proj, lnf, dresidual = 4 BTC, dwide 8 BTC, lnf stats 2 BT,
    // logits + probs 2 BT Vp, losses BT, preatt + datt 2 att.
    EXPECT_EQ(f.other_bytes,
              4 * (2 * BT + 12 * BTC + 3 * BT + 2 * BT * s.padded_vocab_size + 2 * att));
}

// What each recompute mode keeps (recompute.h): selective drops ln1, ln2 and gelu
// (6 BTC per layer) for two shared (B,T,C) buffers, and the attention probabilities att
// (Korthikanti et al. 2022's selective recomputation) for one shared (B,NH,T,T) buffer;
// full keeps residual3 (BTC) per layer and one shared block of the rest but gelu
// (11 BTC, 4 BT and att). gelu lives in dwide_b in both.
TEST(ActivationFootprint, RecomputeModesKeepWhatTheyClaim) {
    const ModelShape s = *findModelPreset("micro");
    const int B = 8, T = 128;
    const long long BT = B * T, BTC = BT * s.n_embd, att = BT * s.n_head * T;
    const ActivationFootprint none = activationFootprint(s, B, T);
    const ActivationFootprint sel = activationFootprint(s, B, T, Recompute::Selective);
    const ActivationFootprint full = activationFootprint(s, B, T, Recompute::Full);
    EXPECT_EQ(sel.per_layer_bytes, 4 * (10 * BTC + 4 * BT));
    EXPECT_EQ(sel.other_bytes, none.other_bytes + 4 * (2 * BTC + att));
    EXPECT_EQ(full.per_layer_bytes, 4 * BTC);
    EXPECT_EQ(full.other_bytes, none.other_bytes + 4 * (11 * BTC + 4 * BT + att));
    // The figure: micro at micro-batch 8 holds about 94.5 MB without recompute.
    EXPECT_NEAR(none.total(s.n_layer) / 1e6, 94.5, 0.5);
    EXPECT_LT(full.total(s.n_layer), none.total(s.n_layer) / 2);

    const Gpt2ActivationLayout a = makeGpt2ActivationLayout(s, B, T, Recompute::Full);
    EXPECT_TRUE(a.layer.residual3.per_layer);
    EXPECT_FALSE(a.layer.qkv.per_layer);
    EXPECT_EQ(a.layer.fch_gelu.offset, a.dwide_b);
    EXPECT_GE(a.layer.ln1.offset, a.recompute_block);
    EXPECT_LT(a.layer.fch.offset + 4 * BTC, a.other_floats + 1);
    const Gpt2ActivationLayout b = makeGpt2ActivationLayout(s, B, T, Recompute::Selective);
    EXPECT_EQ(b.layer.ln1.offset, b.recompute_ln1);
    EXPECT_EQ(b.layer.ln2.offset, b.recompute_ln2);
    EXPECT_EQ(b.layer.att.offset, b.recompute_att);
    EXPECT_FALSE(b.layer.ln1.per_layer);
    EXPECT_FALSE(b.layer.att.per_layer);
    EXPECT_TRUE(b.layer.qkv.per_layer);
    EXPECT_TRUE(b.layer.fch.per_layer);
}

// Flash attention (ModelShape::attention) keeps each query row's log-sum-exp, (B,NH,T)
// per layer, where Standard keeps att (B,NH,T,T); the shared preatt and datt give way to
// the backward's delta (B,NH,T). Everything else is the same in every recompute mode;
// selective keeps the lse per layer (there is nothing of T x T left to drop).
TEST(ActivationFootprint, FlashKeepsTheLogSumExpInsteadOfTheProbabilities) {
    ModelShape s = *findModelPreset("micro");
    const int B = 8, T = 128;
    const long long BT = B * T, att = BT * s.n_head * T, rows = BT * s.n_head;
    ModelShape f = s;
    f.attention = AttentionKernel::Flash;
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        SCOPED_TRACE(std::string(recomputeName(r)));
        const ActivationFootprint standard = activationFootprint(s, B, T, r);
        const ActivationFootprint flash = activationFootprint(f, B, T, r);
        switch (r) {
        case Recompute::None:
            EXPECT_EQ(flash.per_layer_bytes, standard.per_layer_bytes - 4 * (att - rows));
            EXPECT_EQ(flash.other_bytes, standard.other_bytes - 4 * (2 * att - rows));
            break;
        case Recompute::Selective: // Standard's att is one shared buffer here
            EXPECT_EQ(flash.per_layer_bytes, standard.per_layer_bytes + 4 * rows);
            EXPECT_EQ(flash.other_bytes, standard.other_bytes - 4 * (3 * att - rows));
            break;
        case Recompute::Full: // att and lse both in the shared block
            EXPECT_EQ(flash.per_layer_bytes, standard.per_layer_bytes);
            EXPECT_EQ(flash.other_bytes, standard.other_bytes - 4 * (3 * att - 2 * rows));
            break;
        }
        const Gpt2ActivationLayout a = makeGpt2ActivationLayout(f, B, T, r);
        EXPECT_EQ(a.attention, AttentionKernel::Flash);
        EXPECT_FALSE(a.layer.att.present());
        EXPECT_TRUE(a.layer.lse.present());
        EXPECT_EQ(a.layer.lse.per_layer, r != Recompute::Full);
        EXPECT_EQ(a.preatt, -1);
        EXPECT_EQ(a.datt, -1);
        EXPECT_EQ(a.recompute_att, -1);
        EXPECT_GE(a.delta, 0);
        const Gpt2ActivationLayout b = makeGpt2ActivationLayout(s, B, T, r);
        EXPECT_TRUE(b.layer.att.present());
        EXPECT_FALSE(b.layer.lse.present());
        EXPECT_EQ(b.delta, -1);
    }
}

TEST(ActivationFootprint, GrowsLinearlyInLayersAndAlignsBuffers) {
    ModelShape s = *findModelPreset("nano");
    const Gpt2ActivationLayout a = makeGpt2ActivationLayout(s, 3, 7);
    EXPECT_EQ(a.layer_stride % 16, 0);
    EXPECT_EQ(a.other_floats % 16, 0);
    EXPECT_EQ(a.layer.att.offset % 16, 0);
    EXPECT_EQ(a.logits % 16, 0);
    const ActivationFootprint f2 = activationFootprint(s, 3, 7);
    s.n_layer = 5;
    const ActivationFootprint f5 = activationFootprint(s, 3, 7);
    EXPECT_EQ(f2.per_layer_bytes, f5.per_layer_bytes);
    EXPECT_EQ(f5.total(5) - f2.total(2), 3 * f2.per_layer_bytes);
}

TEST(ActivationFootprint, RejectsBadBatch) {
    const ModelShape s = *findModelPreset("nano");
    EXPECT_THROW(activationFootprint(s, 0, 8), std::invalid_argument);
    EXPECT_THROW(activationFootprint(s, 1, s.seq_len + 1), std::invalid_argument);
}

// Issue 17 §4: B * T * C and B * NH * T * T overflowed int64 for an untrusted micro-batch
// and context (zerolab-plan printed negative GB). Now a bound, by message, and no overflow
// (UBSan) on the way.
TEST(ActivationFootprint, RefusesAnArenaBeyondTheBound) {
    const ModelShape huge{1, 1, 8, 2147483647, 256, 256};
    try {
        activationFootprint(huge, 2147483647, 2147483647);
        ADD_FAILURE() << "accepted a (2^31)^4-float attention buffer";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("micro-batch 2147483647 x seq 2147483647"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("more than 2^52 floats"), std::string::npos)
            << e.what();
    }
    // Just within: the arena is allowed up to kMaxActivationFloats, and its bytes fit.
    const ModelShape wide{1, 1, 1, 1 << 20, 1, 1};
    const ActivationFootprint f = activationFootprint(wide, 1 << 10, 1 << 20);
    EXPECT_GT(f.total(1), 0);
    EXPECT_LE(f.total(1) / 4, kMaxActivationFloats);
}

} // namespace
} // namespace zerolab
