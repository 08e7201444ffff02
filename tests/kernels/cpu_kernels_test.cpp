// Holds every fp32 CPU kernel to the double reference (reference_ops.h): forward
// outputs are poisoned with NaN first (an output the op forgets to write fails),
// gradients are pre-filled with random values (a backward that overwrites
// instead of accumulating fails). Run with 1 thread on small odd shapes and with
// 2 threads on shapes large enough to take the parallel paths.
#include "kernels/kernels.h"
#include "tests/kernels/reference_ops.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using test::closeTo;
using test::plus;
using test::poisoned;
using test::Rng;
using test::toDouble;
using test::toFloat;
using Vec = std::vector<double>;

// fp32 against double: a few ulps per op, but a sum of K terms that cancels carries
// up to ~K ulps of its largest terms (matmul with C = 64 reaches 3e-5).
constexpr double kFp32Tol = 1e-4;

struct Case {
    int threads;
    bool large; // shapes over the kernels' parallel threshold
};

class CpuKernelsTest : public ::testing::TestWithParam<Case> {
protected:
    std::unique_ptr<Kernels> k = makeCpuKernels(GetParam().threads);
    bool large() const { return GetParam().large; }
};

TEST_P(CpuKernelsTest, Encoder) {
    const int B = large() ? 4 : 2, T = large() ? 64 : 5, C = large() ? 128 : 12, Vp = 11;
    Rng rng(11);
    const std::vector<int> inp = rng.integers(B * T, 0, Vp);
    Vec wte = rng.uniform(Vp * C), wpe = rng.uniform(T * C), dout = rng.uniform(B * T * C);
    Vec dwte0 = rng.uniform(wte.size()), dwpe0 = rng.uniform(wpe.size());

    Vec out(B * T * C);
    ref::encoderForward(out.data(), inp.data(), wte.data(), wpe.data(), B, T, C);
    Vec dwte(wte.size()), dwpe(wpe.size());
    ref::encoderBackward(dwte.data(), dwpe.data(), dout.data(), inp.data(), B, T, C);

    auto fOut = poisoned(out.size());
    auto fWte = toFloat(wte), fWpe = toFloat(wpe), fDout = toFloat(dout);
    k->encoderForward(fOut.data(), inp.data(), fWte.data(), fWpe.data(), B, T, C);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    auto fDwte = toFloat(dwte0), fDwpe = toFloat(dwpe0);
    k->encoderBackward(fDwte.data(), fDwpe.data(), fDout.data(), inp.data(), B, T, C);
    EXPECT_TRUE(closeTo(fDwte, plus(dwte0, dwte), kFp32Tol));
    EXPECT_TRUE(closeTo(fDwpe, plus(dwpe0, dwpe), kFp32Tol));
}

// Without a position table (wpe nullptr, the Llama embedding): the reference with an
// all-zero wpe, whose dwpe is then discarded.
TEST_P(CpuKernelsTest, EncoderWithoutPositions) {
    const int B = large() ? 4 : 2, T = large() ? 64 : 5, C = large() ? 128 : 12, Vp = 11;
    Rng rng(13);
    const std::vector<int> inp = rng.integers(B * T, 0, Vp);
    Vec wte = rng.uniform(Vp * C), zeros(T * C, 0.0), dout = rng.uniform(B * T * C);
    Vec dwte0 = rng.uniform(wte.size());

    Vec out(B * T * C);
    ref::encoderForward(out.data(), inp.data(), wte.data(), zeros.data(), B, T, C);
    Vec dwte(wte.size()), dwpe(zeros.size());
    ref::encoderBackward(dwte.data(), dwpe.data(), dout.data(), inp.data(), B, T, C);

    auto fOut = poisoned(out.size());
    auto fWte = toFloat(wte), fDout = toFloat(dout);
    k->encoderForward(fOut.data(), inp.data(), fWte.data(), nullptr, B, T, C);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    auto fDwte = toFloat(dwte0);
    k->encoderBackward(fDwte.data(), nullptr, fDout.data(), inp.data(), B, T, C);
    EXPECT_TRUE(closeTo(fDwte, plus(dwte0, dwte), kFp32Tol));
}

TEST_P(CpuKernelsTest, Layernorm) {
    const int N = large() ? 512 : 7, C = large() ? 96 : 13;
    Rng rng(12);
    Vec inp = rng.uniform(N * C, -3, 5), w = rng.uniform(C), b = rng.uniform(C),
        dout = rng.uniform(N * C);
    Vec dinp0 = rng.uniform(inp.size()), dw0 = rng.uniform(C), db0 = rng.uniform(C);

    Vec out(N * C), mean(N), rstd(N);
    ref::layernormForward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(), N,
                          C);
    Vec dinp(inp.size()), dw(C), db(C);
    ref::layernormBackward(dinp.data(), dw.data(), db.data(), dout.data(), inp.data(), w.data(),
                           mean.data(), rstd.data(), N, C);

    auto fOut = poisoned(out.size()), fMean = poisoned(N), fRstd = poisoned(N);
    auto fInp = toFloat(inp), fW = toFloat(w), fB = toFloat(b), fDout = toFloat(dout);
    k->layernormForward(fOut.data(), fMean.data(), fRstd.data(), fInp.data(), fW.data(), fB.data(),
                        N, C);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    EXPECT_TRUE(closeTo(fMean, mean, kFp32Tol));
    EXPECT_TRUE(closeTo(fRstd, rstd, kFp32Tol));
    auto fDinp = toFloat(dinp0), fDw = toFloat(dw0), fDb = toFloat(db0);
    k->layernormBackward(fDinp.data(), fDw.data(), fDb.data(), fDout.data(), fInp.data(), fW.data(),
                         fMean.data(), fRstd.data(), N, C);
    EXPECT_TRUE(closeTo(fDinp, plus(dinp0, dinp), kFp32Tol));
    EXPECT_TRUE(closeTo(fDw, plus(dw0, dw), kFp32Tol));
    EXPECT_TRUE(closeTo(fDb, plus(db0, db), kFp32Tol));
}

// withBias = false also passes nullptr for dbias and dinp (the first layer's input).
void checkMatmul(Kernels& k, int N, int C, int OC, bool withBias) {
    Rng rng(13);
    Vec inp = rng.uniform(N * C), w = rng.uniform(OC * C), bias = rng.uniform(OC),
        dout = rng.uniform(N * OC);
    Vec dinp0 = rng.uniform(inp.size()), dw0 = rng.uniform(w.size()), db0 = rng.uniform(OC);
    const double* refBias = withBias ? bias.data() : nullptr;

    Vec out(N * OC);
    ref::matmulForward(out.data(), inp.data(), w.data(), refBias, N, C, OC);
    Vec dinp(inp.size()), dw(w.size()), db(OC);
    ref::matmulBackward(dinp.data(), dw.data(), db.data(), dout.data(), inp.data(), w.data(), N, C,
                        OC);

    auto fOut = poisoned(out.size());
    auto fInp = toFloat(inp), fW = toFloat(w), fBias = toFloat(bias), fDout = toFloat(dout);
    k.matmulForward(fOut.data(), fInp.data(), fW.data(), withBias ? fBias.data() : nullptr, N, C,
                    OC);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol)) << "bias " << withBias;
    auto fDinp = toFloat(dinp0), fDw = toFloat(dw0), fDb = toFloat(db0);
    k.matmulBackward(withBias ? fDinp.data() : nullptr, fDw.data(), withBias ? fDb.data() : nullptr,
                     fDout.data(), fInp.data(), fW.data(), N, C, OC);
    EXPECT_TRUE(closeTo(fDw, plus(dw0, dw), kFp32Tol)) << "bias " << withBias;
    if (withBias) {
        EXPECT_TRUE(closeTo(fDinp, plus(dinp0, dinp), kFp32Tol));
        EXPECT_TRUE(closeTo(fDb, plus(db0, db), kFp32Tol));
    } else {
        EXPECT_EQ(fDinp, toFloat(dinp0)) << "dinp = nullptr must leave other buffers alone";
        EXPECT_EQ(fDb, toFloat(db0));
    }
}

TEST_P(CpuKernelsTest, Matmul) {
    const int N = large() ? 300 : 9, C = large() ? 64 : 10, OC = large() ? 130 : 7;
    checkMatmul(*k, N, C, OC, true);
    checkMatmul(*k, N, C, OC, false);
}

// The lower triangle (t2 <= t) of each (B,NH,T,T) matrix: the part of preatt
// the interface specifies.
std::vector<float> lowerTriangle(const std::vector<float>& m, int mats, int T) {
    std::vector<float> r;
    for (int b = 0; b < mats; ++b)
        for (int t = 0; t < T; ++t)
            for (int t2 = 0; t2 <= t; ++t2)
                r.push_back(m[(static_cast<std::size_t>(b) * T + t) * T + t2]);
    return r;
}

Vec lowerTriangle(const Vec& m, int mats, int T) {
    return toDouble(lowerTriangle(toFloat(m), mats, T));
}

// T = 70 crosses the kernel's 64-row causal block; NH = 3 gives odd head offsets.
TEST_P(CpuKernelsTest, Attention) {
    const int B = large() ? 3 : 2, T = 70, C = large() ? 48 : 12, NH = 3;
    const std::size_t att = static_cast<std::size_t>(B) * NH * T * T;
    Rng rng(14);
    Vec qkv = rng.uniform(B * T * 3 * C, -2, 2), dout = rng.uniform(B * T * C);
    Vec dqkv0 = rng.uniform(qkv.size());

    Vec out(B * T * C), preatt(att), attn(att);
    ref::attentionForward(out.data(), preatt.data(), attn.data(), qkv.data(), B, T, C, NH);
    Vec dqkv(qkv.size());
    ref::attentionBackward(dqkv.data(), dout.data(), qkv.data(), attn.data(), B, T, C, NH);

    auto fOut = poisoned(out.size()), fPre = poisoned(att), fAtt = poisoned(att);
    auto fQkv = toFloat(qkv), fDout = toFloat(dout);
    k->attentionForward(fOut.data(), fPre.data(), fAtt.data(), fQkv.data(), B, T, C, NH);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    EXPECT_TRUE(closeTo(fAtt, attn, kFp32Tol));
    EXPECT_TRUE(
        closeTo(lowerTriangle(fPre, B * NH, T), lowerTriangle(preatt, B * NH, T), kFp32Tol));

    auto fDqkv = toFloat(dqkv0), fDpre = poisoned(att), fDatt = poisoned(att);
    k->attentionBackward(fDqkv.data(), fDpre.data(), fDatt.data(), fDout.data(), fQkv.data(),
                         fAtt.data(), B, T, C, NH);
    EXPECT_TRUE(closeTo(fDqkv, plus(dqkv0, dqkv), kFp32Tol));
}

TEST_P(CpuKernelsTest, AttentionRejectsIndivisibleHeads) {
    std::vector<float> buf(4096);
    EXPECT_THROW(k->attentionForward(buf.data(), buf.data(), buf.data(), buf.data(), 1, 2, 10, 3),
                 KernelError);
}

TEST_P(CpuKernelsTest, Gelu) {
    const std::size_t n = large() ? 40001 : 203;
    Rng rng(15);
    Vec inp = rng.uniform(n, -6, 6), dout = rng.uniform(n), dinp0 = rng.uniform(n);
    inp[0] = 0.0; // the exact centre, and both saturated tails
    inp[1] = -30.0;
    inp[2] = 30.0;
    Vec out(n), dinp(n);
    ref::geluForward(out.data(), inp.data(), n);
    ref::geluBackward(dinp.data(), inp.data(), dout.data(), n);

    auto fOut = poisoned(n);
    auto fInp = toFloat(inp), fDout = toFloat(dout), fDinp = toFloat(dinp0);
    k->geluForward(fOut.data(), fInp.data(), n);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    k->geluBackward(fDinp.data(), fInp.data(), fDout.data(), n);
    EXPECT_TRUE(closeTo(fDinp, plus(dinp0, dinp), kFp32Tol));
}

TEST_P(CpuKernelsTest, Residual) {
    const std::size_t n = large() ? 50000 : 37;
    Rng rng(16);
    Vec a = rng.uniform(n), b = rng.uniform(n), dout = rng.uniform(n);
    Vec da0 = rng.uniform(n), db0 = rng.uniform(n);
    Vec out(n), da(n), db(n);
    ref::residualForward(out.data(), a.data(), b.data(), n);
    ref::residualBackward(da.data(), db.data(), dout.data(), n);

    auto fOut = poisoned(n);
    auto fA = toFloat(a), fB = toFloat(b), fDout = toFloat(dout);
    k->residualForward(fOut.data(), fA.data(), fB.data(), n);
    EXPECT_TRUE(closeTo(fOut, out, kFp32Tol));
    auto fDa = toFloat(da0), fDb = toFloat(db0);
    k->residualBackward(fDa.data(), fDb.data(), fDout.data(), n);
    EXPECT_TRUE(closeTo(fDa, plus(da0, da), kFp32Tol));
    EXPECT_TRUE(closeTo(fDb, plus(db0, db), kFp32Tol));
}

TEST_P(CpuKernelsTest, SoftmaxCrossEntropy) {
    const int B = large() ? 4 : 2, T = large() ? 64 : 3, V = large() ? 100 : 10,
              Vp = large() ? 128 : 16;
    Rng rng(17);
    Vec logits = rng.uniform(B * T * Vp, -8, 8), dlosses = rng.uniform(B * T);
    const std::vector<int> targets = rng.integers(B * T, 0, V);
    Vec dlogits0 = rng.uniform(logits.size());
    Vec losses(B * T), probs(B * T * Vp), dlogits(logits.size());
    ref::softmaxCrossEntropyForward(losses.data(), probs.data(), logits.data(), targets.data(), B,
                                    T, V, Vp);
    ref::crossEntropySoftmaxBackward(dlogits.data(), dlosses.data(), probs.data(), targets.data(),
                                     B, T, V, Vp);

    auto fLosses = poisoned(losses.size()), fProbs = poisoned(probs.size());
    auto fLogits = toFloat(logits), fDlosses = toFloat(dlosses);
    k->softmaxCrossEntropyForward(fLosses.data(), fProbs.data(), fLogits.data(), targets.data(), B,
                                  T, V, Vp);
    EXPECT_TRUE(closeTo(fLosses, losses, kFp32Tol));
    EXPECT_TRUE(closeTo(fProbs, probs, kFp32Tol));
    auto fDlogits = toFloat(dlogits0);
    k->crossEntropySoftmaxBackward(fDlogits.data(), fDlosses.data(), fProbs.data(), targets.data(),
                                   B, T, V, Vp);
    EXPECT_TRUE(closeTo(fDlogits, plus(dlogits0, dlogits), kFp32Tol));
}

TEST_P(CpuKernelsTest, SoftmaxCrossEntropyRejectsTargetOutsideVocabulary) {
    const int V = 4, Vp = 8;
    std::vector<float> logits(Vp, 0.0f), probs(Vp), losses(1);
    const int padded = 5; // inside Vp but not a real token
    EXPECT_THROW(k->softmaxCrossEntropyForward(losses.data(), probs.data(), logits.data(), &padded,
                                               1, 1, V, Vp),
                 KernelError);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuKernelsTest,
                         ::testing::Values(Case{1, false}, Case{1, true}, Case{2, true}),
                         [](const auto& info) {
                             return std::string(info.param.large ? "Large" : "Small") + "Threads" +
                                    std::to_string(info.param.threads);
                         });

} // namespace
} // namespace zerolab
