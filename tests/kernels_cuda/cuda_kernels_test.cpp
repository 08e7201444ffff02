// Each model op of the CUDA kernels against the CPU kernels on the same fresh
// random inputs: outputs poisoned with NaN on both sides first (an output the op
// forgets to write fails), gradients pre-filled with the same random values (a
// backward that overwrites instead of accumulating fails). Backward ops get the
// CPU forward's saved tensors so that each op is checked on its own.
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

#include <ostream>

namespace zerolab {
namespace {

using test::closeTo;
using test::DeviceVec;
using test::poisoned;
using test::Rng;
using test::toDouble;
using test::toFloat;
using FVec = std::vector<float>;

// Both sides compute in fp32 with different summation orders (cuBLAS tiles, warp
// reductions, CPU SIMD lanes) and the CPU's exp approximation: a few ulps of the largest
// term per sum; products and row reductions get twice the element-wise allowance.
constexpr double kElementTol = 1e-4;
constexpr double kReduceTol = 2e-4;

// V, Vp: the vocabulary of the encoder and the cross-entropy.
struct Shape {
    int B, T, C, NH, V, Vp;
};

void PrintTo(const Shape& s, std::ostream* os) {
    *os << "B=" << s.B << " T=" << s.T << " C=" << s.C << " NH=" << s.NH << " V=" << s.V
        << " Vp=" << s.Vp;
}

bool realSize(long long rows) {
    return rows >= test::RealSizes::kGpt2T;
}

class CudaModelOpsTest : public test::CudaVsCpuTest, public ::testing::WithParamInterface<Shape> {
protected:
    CudaModelOpsTest() {
        if (realSize(static_cast<long long>(s().B) * s().T))
            cpuThreads = test::kRealSizeThreads;
    }
    Shape s() const { return GetParam(); }
};

// A Linear layer: N rows, C in, OC out; withBias: also run it with a bias (else only
// without, as GPT-2's LM head and every Llama projection).
struct MatmulShape {
    const char* name;
    int N, C, OC;
    bool withBias;
};

void PrintTo(const MatmulShape& m, std::ostream* os) {
    *os << m.name;
}

class CudaMatmulTest : public test::CudaVsCpuTest,
                       public ::testing::WithParamInterface<MatmulShape> {
protected:
    CudaMatmulTest() {
        if (realSize(GetParam().N) || GetParam().C >= test::RealSizes::kLlamaC)
            cpuThreads = test::kRealSizeThreads;
    }
    std::vector<bool> biasCases() const {
        return GetParam().withBias ? std::vector<bool>{true, false} : std::vector<bool>{false};
    }
};

FVec randomFloats(Rng& rng, std::size_t n, double lo = -1.0, double hi = 1.0) {
    return toFloat(rng.uniform(n, lo, hi));
}

TEST_P(CudaModelOpsTest, Encoder) {
    const auto [B, T, C, NH, V, Vp] = s();
    Rng rng(101);
    const std::vector<int> inp = rng.integers(B * T, 0, V);
    const FVec wte = randomFloats(rng, std::size_t(Vp) * C), wpe = randomFloats(rng, T * C),
               dout = randomFloats(rng, B * T * C), dwte0 = randomFloats(rng, wte.size()),
               dwpe0 = randomFloats(rng, wpe.size());

    FVec out = poisoned(B * T * C), dwte = dwte0, dwpe = dwpe0;
    auto cInp = inp;
    auto cWte = wte, cWpe = wpe, cDout = dout;
    cpu->encoderForward(out.data(), cInp.data(), cWte.data(), cWpe.data(), B, T, C);
    cpu->encoderBackward(dwte.data(), dwpe.data(), cDout.data(), cInp.data(), B, T, C);

    DeviceVec<int> gInp(*gpu, inp);
    DeviceVec<float> gWte(*gpu, wte), gWpe(*gpu, wpe), gDout(*gpu, dout),
        gOut(*gpu, poisoned(out.size())), gDwte(*gpu, dwte0), gDwpe(*gpu, dwpe0);
    gpu->encoderForward(gOut.get(), gInp.get(), gWte.get(), gWpe.get(), B, T, C);
    gpu->encoderBackward(gDwte.get(), gDwpe.get(), gDout.get(), gInp.get(), B, T, C);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kElementTol));
    EXPECT_TRUE(closeTo(gDwte.host(), toDouble(dwte), kReduceTol));
    EXPECT_TRUE(closeTo(gDwpe.host(), toDouble(dwpe), kReduceTol));
}

// Without a position table (wpe nullptr, the Llama embedding).
TEST_P(CudaModelOpsTest, EncoderWithoutPositions) {
    const auto [B, T, C, NH, V, Vp] = s();
    Rng rng(111);
    const std::vector<int> inp = rng.integers(B * T, 0, V);
    const FVec wte = randomFloats(rng, std::size_t(Vp) * C), dout = randomFloats(rng, B * T * C),
               dwte0 = randomFloats(rng, wte.size());

    FVec out = poisoned(B * T * C), dwte = dwte0;
    auto cInp = inp;
    auto cWte = wte, cDout = dout;
    cpu->encoderForward(out.data(), cInp.data(), cWte.data(), nullptr, B, T, C);
    cpu->encoderBackward(dwte.data(), nullptr, cDout.data(), cInp.data(), B, T, C);

    DeviceVec<int> gInp(*gpu, inp);
    DeviceVec<float> gWte(*gpu, wte), gDout(*gpu, dout), gOut(*gpu, poisoned(out.size())),
        gDwte(*gpu, dwte0);
    gpu->encoderForward(gOut.get(), gInp.get(), gWte.get(), nullptr, B, T, C);
    gpu->encoderBackward(gDwte.get(), nullptr, gDout.get(), gInp.get(), B, T, C);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kElementTol));
    EXPECT_TRUE(closeTo(gDwte.host(), toDouble(dwte), kReduceTol));
}

TEST_P(CudaModelOpsTest, Layernorm) {
    const auto [B, T, C, NH, V, Vp] = s();
    const int N = B * T;
    Rng rng(102);
    const FVec inp = randomFloats(rng, N * C, -3, 5), w = randomFloats(rng, C),
               b = randomFloats(rng, C), dout = randomFloats(rng, N * C),
               dinp0 = randomFloats(rng, N * C), dw0 = randomFloats(rng, C),
               db0 = randomFloats(rng, C);

    FVec out = poisoned(N * C), mean = poisoned(N), rstd = poisoned(N);
    auto cInp = inp, cW = w, cB = b, cDout = dout;
    cpu->layernormForward(out.data(), mean.data(), rstd.data(), cInp.data(), cW.data(), cB.data(),
                          N, C);
    FVec dinp = dinp0, dw = dw0, db = db0;
    cpu->layernormBackward(dinp.data(), dw.data(), db.data(), cDout.data(), cInp.data(), cW.data(),
                           mean.data(), rstd.data(), N, C);

    DeviceVec<float> gInp(*gpu, inp), gW(*gpu, w), gB(*gpu, b), gDout(*gpu, dout),
        gOut(*gpu, poisoned(N * C)), gMean(*gpu, poisoned(N)), gRstd(*gpu, poisoned(N));
    gpu->layernormForward(gOut.get(), gMean.get(), gRstd.get(), gInp.get(), gW.get(), gB.get(), N,
                          C);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));
    EXPECT_TRUE(closeTo(gMean.host(), toDouble(mean), kReduceTol));
    EXPECT_TRUE(closeTo(gRstd.host(), toDouble(rstd), kReduceTol));

    DeviceVec<float> gMeanCpu(*gpu, mean), gRstdCpu(*gpu, rstd), gDinp(*gpu, dinp0), gDw(*gpu, dw0),
        gDb(*gpu, db0);
    gpu->layernormBackward(gDinp.get(), gDw.get(), gDb.get(), gDout.get(), gInp.get(), gW.get(),
                           gMeanCpu.get(), gRstdCpu.get(), N, C);
    EXPECT_TRUE(closeTo(gDinp.host(), toDouble(dinp), kReduceTol));
    EXPECT_TRUE(closeTo(gDw.host(), toDouble(dw), kReduceTol));
    EXPECT_TRUE(closeTo(gDb.host(), toDouble(db), kReduceTol));
}

// A Linear layer's random inputs and pre-filled gradients (N rows, C in, OC out).
struct MatmulCase {
    MatmulCase(int N, int C, int OC, unsigned seed) {
        Rng rng(seed);
        inp = randomFloats(rng, std::size_t(N) * C);
        w = randomFloats(rng, std::size_t(OC) * C);
        bias = randomFloats(rng, OC);
        dout = randomFloats(rng, std::size_t(N) * OC);
        dinp0 = randomFloats(rng, std::size_t(N) * C);
        dw0 = randomFloats(rng, std::size_t(OC) * C);
        db0 = randomFloats(rng, OC);
    }
    FVec inp, w, bias, dout, dinp0, dw0, db0;
};

// Attention's random inputs and the CPU kernels' forward and backward on them.
struct AttentionCase {
    AttentionCase(Kernels& cpu, const Shape& s, unsigned seed)
        : qkvN(std::size_t(s.B) * s.T * 3 * s.C), attN(std::size_t(s.B) * s.NH * s.T * s.T),
          outN(std::size_t(s.B) * s.T * s.C) {
        Rng rng(seed);
        qkv = randomFloats(rng, qkvN, -2, 2);
        dout = randomFloats(rng, outN);
        dqkv0 = randomFloats(rng, qkvN);
        auto cQkv = qkv, cDout = dout;
        out = poisoned(outN);
        preatt = poisoned(attN);
        att = poisoned(attN);
        cpu.attentionForward(out.data(), preatt.data(), att.data(), cQkv.data(), s.B, s.T, s.C,
                             s.NH);
        dqkv = dqkv0;
        FVec dpreatt = poisoned(attN), datt = poisoned(attN);
        cpu.attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), cDout.data(), cQkv.data(),
                              att.data(), s.B, s.T, s.C, s.NH);
    }
    std::size_t qkvN, attN, outN;
    FVec qkv, dout, dqkv0;       // inputs
    FVec out, preatt, att, dqkv; // the CPU's results
};

TEST_P(CudaMatmulTest, Matmul) {
    const auto [name, N, C, OC, withBiasToo] = GetParam();
    const MatmulCase d(N, C, OC, 103);
    const FVec &inp = d.inp, &w = d.w, &bias = d.bias, &dout = d.dout, &dinp0 = d.dinp0,
               &dw0 = d.dw0, &db0 = d.db0;
    auto cInp = inp, cW = w, cBias = bias, cDout = dout;

    DeviceVec<float> gInp(*gpu, inp), gW(*gpu, w), gBias(*gpu, bias), gDout(*gpu, dout);
    for (bool withBias : biasCases()) {
        SCOPED_TRACE(withBias ? "with bias" : "without bias");
        FVec out = poisoned(std::size_t(N) * OC);
        cpu->matmulForward(out.data(), cInp.data(), cW.data(), withBias ? cBias.data() : nullptr, N,
                           C, OC);
        DeviceVec<float> gOut(*gpu, poisoned(std::size_t(N) * OC));
        gpu->matmulForward(gOut.get(), gInp.get(), gW.get(), withBias ? gBias.get() : nullptr, N, C,
                           OC);
        EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));

        FVec dinp = dinp0, dw = dw0, db = db0;
        cpu->matmulBackward(withBias ? dinp.data() : nullptr, dw.data(),
                            withBias ? db.data() : nullptr, cDout.data(), cInp.data(), cW.data(), N,
                            C, OC);
        DeviceVec<float> gDinp(*gpu, dinp0), gDw(*gpu, dw0), gDb(*gpu, db0);
        gpu->matmulBackward(withBias ? gDinp.get() : nullptr, gDw.get(),
                            withBias ? gDb.get() : nullptr, gDout.get(), gInp.get(), gW.get(), N, C,
                            OC);
        EXPECT_TRUE(closeTo(gDinp.host(), toDouble(dinp), kReduceTol));
        EXPECT_TRUE(closeTo(gDw.host(), toDouble(dw), kReduceTol));
        EXPECT_TRUE(closeTo(gDb.host(), toDouble(db), kReduceTol));
    }
}

// MatmulMath::Bf16 rounds both operands to bf16 and accumulates in fp32: the reference
// is the CPU's fp32 product of the same bf16-rounded operands, so only the summation
// order differs (products of two bf16 values are exact in fp32). dbias sums the fp32
// dout as before.
TEST_P(CudaMatmulTest, MatmulBf16TensorCores) {
    const auto [name, N, C, OC, withBiasToo] = GetParam();
    const MatmulCase d(N, C, OC, 109);
    const FVec &inp = d.inp, &w = d.w, &bias = d.bias, &dout = d.dout, &dinp0 = d.dinp0,
               &dw0 = d.dw0, &db0 = d.db0;
    auto rounded = [](FVec v) {
        for (float& x : v)
            x = floatFromBf16(bf16FromFloat(x));
        return v;
    };
    FVec rInp = rounded(inp), rW = rounded(w), rDout = rounded(dout), cBias = bias, cDout = dout;
    auto bf = makeCudaKernels(0, MatmulMath::Bf16);
    DeviceVec<float> gInp(*bf, inp), gW(*bf, w), gBias(*bf, bias), gDout(*bf, dout);

    FVec out = poisoned(std::size_t(N) * OC);
    cpu->matmulForward(out.data(), rInp.data(), rW.data(), cBias.data(), N, C, OC);
    DeviceVec<float> gOut(*bf, poisoned(std::size_t(N) * OC));
    bf->matmulForward(gOut.get(), gInp.get(), gW.get(), gBias.get(), N, C, OC);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));
    // Really bf16: the unrounded fp32 product differs by far more than fp32 rounding
    // (every shape here sums at least 32 products).
    FVec exact = poisoned(std::size_t(N) * OC);
    FVec cInp = inp, cW = w;
    cpu->matmulForward(exact.data(), cInp.data(), cW.data(), cBias.data(), N, C, OC);
    EXPECT_FALSE(closeTo(gOut.host(), toDouble(exact), kReduceTol));

    FVec dinp = dinp0, dw = dw0, db = db0;
    cpu->matmulBackward(dinp.data(), dw.data(), db.data(), rDout.data(), rInp.data(), rW.data(), N,
                        C, OC);
    FVec dbExact = db0; // dbias from the unrounded dout
    cpu->matmulBackward(nullptr, FVec(std::size_t(OC) * C).data(), dbExact.data(), cDout.data(),
                        cInp.data(), cW.data(), N, C, OC);
    DeviceVec<float> gDinp(*bf, dinp0), gDw(*bf, dw0), gDb(*bf, db0);
    bf->matmulBackward(gDinp.get(), gDw.get(), gDb.get(), gDout.get(), gInp.get(), gW.get(), N, C,
                       OC);
    EXPECT_TRUE(closeTo(gDinp.host(), toDouble(dinp), kReduceTol));
    EXPECT_TRUE(closeTo(gDw.host(), toDouble(dw), kReduceTol));
    EXPECT_TRUE(closeTo(gDb.host(), toDouble(dbExact), kReduceTol));
}

TEST_P(CudaModelOpsTest, Attention) {
    const auto [B, T, C, NH, V, Vp] = s();
    const AttentionCase d(*cpu, s(), 104);
    const std::size_t attN = d.attN, outN = d.outN;
    const FVec &qkv = d.qkv, &dout = d.dout, &dqkv0 = d.dqkv0, &out = d.out, &preatt = d.preatt,
               &att = d.att, &dqkv = d.dqkv;

    DeviceVec<float> gQkv(*gpu, qkv), gDout(*gpu, dout), gOut(*gpu, poisoned(outN)),
        gPreatt(*gpu, poisoned(attN)), gAtt(*gpu, poisoned(attN));
    gpu->attentionForward(gOut.get(), gPreatt.get(), gAtt.get(), gQkv.get(), B, T, C, NH);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));
    // att is compared whole (exact zeros above the diagonal); preatt only matters below it.
    EXPECT_TRUE(closeTo(gAtt.host(), toDouble(att), kReduceTol));
    FVec gotPre = gPreatt.host(), wantPre(attN, 0.0f), lowerGot(attN, 0.0f);
    for (std::size_t r = 0; r < attN / T; ++r)
        for (int j = 0; j <= static_cast<int>(r % T); ++j) {
            wantPre[r * T + j] = preatt[r * T + j];
            lowerGot[r * T + j] = gotPre[r * T + j];
        }
    EXPECT_TRUE(closeTo(lowerGot, toDouble(wantPre), kReduceTol));

    DeviceVec<float> gAttCpu(*gpu, att), gDqkv(*gpu, dqkv0), gDpreatt(*gpu, poisoned(attN)),
        gDatt(*gpu, poisoned(attN));
    gpu->attentionBackward(gDqkv.get(), gDpreatt.get(), gDatt.get(), gDout.get(), gQkv.get(),
                           gAttCpu.get(), B, T, C, NH);
    EXPECT_TRUE(closeTo(gDqkv.host(), toDouble(dqkv), kReduceTol));
}

// MatmulMath::Bf16 runs attention's products on bf16 copies of qkv, att, dout and
// dpreatt with fp32 accumulation; softmax and outputs stay fp32. Against the CPU's fp32
// attention the error is bf16 rounding of the operands (2^-9 relative each), so the bar
// is bf16's; the fp32 products of the same inputs must differ from them (really bf16).
TEST_P(CudaModelOpsTest, AttentionBf16TensorCores) {
    const auto [B, T, C, NH, V, Vp] = s();
    constexpr double kBf16Tol = 3e-2;
    const AttentionCase d(*cpu, s(), 110);
    const std::size_t attN = d.attN, outN = d.outN;
    const FVec &qkv = d.qkv, &dout = d.dout, &dqkv0 = d.dqkv0, &out = d.out, &att = d.att,
               &dqkv = d.dqkv;

    auto bf = makeCudaKernels(0, MatmulMath::Bf16);
    DeviceVec<float> gQkv(*bf, qkv), gDout(*bf, dout), gOut(*bf, poisoned(outN)),
        gPreatt(*bf, poisoned(attN)), gAtt(*bf, poisoned(attN));
    bf->attentionForward(gOut.get(), gPreatt.get(), gAtt.get(), gQkv.get(), B, T, C, NH);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kBf16Tol));
    EXPECT_TRUE(closeTo(gAtt.host(), toDouble(att), kBf16Tol));
    // Really bf16: even at T = 1 (att = 1) out is v rounded to bf16.
    EXPECT_FALSE(closeTo(gOut.host(), toDouble(out), kReduceTol));

    DeviceVec<float> gAttCpu(*bf, att), gDqkv(*bf, dqkv0), gDpreatt(*bf, poisoned(attN)),
        gDatt(*bf, poisoned(attN));
    bf->attentionBackward(gDqkv.get(), gDpreatt.get(), gDatt.get(), gDout.get(), gQkv.get(),
                          gAttCpu.get(), B, T, C, NH);
    EXPECT_TRUE(closeTo(gDqkv.host(), toDouble(dqkv), kBf16Tol));
}

TEST_P(CudaModelOpsTest, GeluAndResidual) {
    const auto [B, T, C, NH, V, Vp] = s();
    const std::size_t n = static_cast<std::size_t>(B) * T * 4 * C;
    Rng rng(105);
    const FVec x = randomFloats(rng, n, -6, 6), y = randomFloats(rng, n),
               dout = randomFloats(rng, n), d0 = randomFloats(rng, n), d1 = randomFloats(rng, n);
    auto cX = x, cY = y, cDout = dout;
    FVec gelu = poisoned(n), dgelu = d0, sum = poisoned(n), da = d0, db = d1;
    cpu->geluForward(gelu.data(), cX.data(), n);
    cpu->geluBackward(dgelu.data(), cX.data(), cDout.data(), n);
    cpu->residualForward(sum.data(), cX.data(), cY.data(), n);
    cpu->residualBackward(da.data(), db.data(), cDout.data(), n);

    DeviceVec<float> gX(*gpu, x), gY(*gpu, y), gDout(*gpu, dout), gGelu(*gpu, poisoned(n)),
        gDgelu(*gpu, d0), gSum(*gpu, poisoned(n)), gDa(*gpu, d0), gDb(*gpu, d1);
    gpu->geluForward(gGelu.get(), gX.get(), n);
    gpu->geluBackward(gDgelu.get(), gX.get(), gDout.get(), n);
    gpu->residualForward(gSum.get(), gX.get(), gY.get(), n);
    gpu->residualBackward(gDa.get(), gDb.get(), gDout.get(), n);
    EXPECT_TRUE(closeTo(gGelu.host(), toDouble(gelu), kElementTol));
    EXPECT_TRUE(closeTo(gDgelu.host(), toDouble(dgelu), kElementTol));
    EXPECT_TRUE(closeTo(gSum.host(), toDouble(sum), kElementTol));
    EXPECT_TRUE(closeTo(gDa.host(), toDouble(da), kElementTol));
    EXPECT_TRUE(closeTo(gDb.host(), toDouble(db), kElementTol));
}

TEST_P(CudaModelOpsTest, SoftmaxCrossEntropy) {
    const auto [B, T, C, NH, V, Vp] = s();
    const std::size_t rows = static_cast<std::size_t>(B) * T, n = rows * Vp;
    Rng rng(106);
    const FVec logits = randomFloats(rng, n, -8, 8), dlosses = randomFloats(rng, rows, 0, 1),
               dlogits0 = randomFloats(rng, n);
    const std::vector<int> targets = rng.integers(rows, 0, V);
    auto cLogits = logits, cDlosses = dlosses;
    auto cTargets = targets;

    FVec losses = poisoned(rows), probs = poisoned(n), dlogits = dlogits0;
    cpu->softmaxCrossEntropyForward(losses.data(), probs.data(), cLogits.data(), cTargets.data(), B,
                                    T, V, Vp);
    cpu->crossEntropySoftmaxBackward(dlogits.data(), cDlosses.data(), probs.data(), cTargets.data(),
                                     B, T, V, Vp);

    DeviceVec<int> gTargets(*gpu, targets);
    DeviceVec<float> gLogits(*gpu, logits), gDlosses(*gpu, dlosses), gLosses(*gpu, poisoned(rows)),
        gProbs(*gpu, poisoned(n)), gProbsCpu(*gpu, probs), gDlogits(*gpu, dlogits0);
    gpu->softmaxCrossEntropyForward(gLosses.get(), gProbs.get(), gLogits.get(), gTargets.get(), B,
                                    T, V, Vp);
    gpu->crossEntropySoftmaxBackward(gDlogits.get(), gDlosses.get(), gProbsCpu.get(),
                                     gTargets.get(), B, T, V, Vp);
    EXPECT_TRUE(closeTo(gLosses.host(), toDouble(losses), kReduceTol));
    EXPECT_TRUE(closeTo(gProbs.host(), toDouble(probs), kReduceTol));
    EXPECT_TRUE(closeTo(gDlogits.host(), toDouble(dlogits), kElementTol));
}

std::string shapeName(const ::testing::TestParamInfo<Shape>& info) {
    const Shape& s = info.param;
    return "B" + std::to_string(s.B) + "T" + std::to_string(s.T) + "C" + std::to_string(s.C) +
           "NH" + std::to_string(s.NH);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaModelOpsTest,
                         ::testing::Values(Shape{3, 70, 96, 3, 1003, 1024},
                                           Shape{2, 129, 128, 2, 1003, 1024},
                                           Shape{1, 1, 32, 1, 1003, 1024}),
                         shapeName);

// GPT-2 124M at B 1: every op at the model's own sizes (the LM head's matmul below).
using test::RealSizes;
INSTANTIATE_TEST_SUITE_P(RealSize, CudaModelOpsTest,
                         ::testing::Values(Shape{1, RealSizes::kGpt2T, RealSizes::kGpt2C,
                                                 RealSizes::kGpt2NH, RealSizes::kGpt2V,
                                                 RealSizes::kGpt2Vp}),
                         shapeName);

// The small shapes' Linear layers (N = B*T, OC = 4C), then the real sizes: GPT-2's fc and
// LM head (OC = Vp, no bias) at B*T = 1024, Llama-3.1-8B's gate/up projection (4096 ->
// 14336, no bias) at 128 rows.
INSTANTIATE_TEST_SUITE_P(Shapes, CudaMatmulTest,
                         ::testing::Values(MatmulShape{"N210C96", 210, 96, 384, true},
                                           MatmulShape{"N258C128", 258, 128, 512, true},
                                           MatmulShape{"N1C32", 1, 32, 128, true}),
                         [](const auto& info) { return std::string(info.param.name); });
INSTANTIATE_TEST_SUITE_P(
    RealSize, CudaMatmulTest,
    ::testing::Values(MatmulShape{"gpt2_124m_fc", RealSizes::kGpt2T, RealSizes::kGpt2C,
                                  4 * RealSizes::kGpt2C, true},
                      MatmulShape{"gpt2_124m_lm_head", RealSizes::kGpt2T, RealSizes::kGpt2C,
                                  RealSizes::kGpt2Vp, false},
                      MatmulShape{"llama8b_gate_up", RealSizes::kLlamaRows, RealSizes::kLlamaC,
                                  RealSizes::kLlamaF, false}),
    [](const auto& info) { return std::string(info.param.name); });

class CudaKernelErrorsTest : public test::CudaVsCpuTest {};

TEST_F(CudaKernelErrorsTest, TargetOutsideVocabularyThrowsBeforeWriting) {
    const int B = 1, T = 4, V = 10, Vp = 16;
    const std::vector<int> targets{1, 2, 10, 3};
    DeviceVec<int> gTargets(*gpu, targets);
    DeviceVec<float> gLogits(*gpu, FVec(B * T * Vp, 0.5f)), gLosses(*gpu, poisoned(B * T)),
        gProbs(*gpu, FVec(B * T * Vp, 7.0f)), gDlosses(*gpu, FVec(B * T, 1.0f)),
        gDlogits(*gpu, FVec(B * T * Vp, 3.0f));
    try {
        gpu->softmaxCrossEntropyForward(gLosses.get(), gProbs.get(), gLogits.get(), gTargets.get(),
                                        B, T, V, Vp);
        FAIL() << "expected a KernelError";
    } catch (const KernelError& e) {
        EXPECT_NE(std::string(e.what()).find("target 10 at position 2"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(gpu->crossEntropySoftmaxBackward(gDlogits.get(), gDlosses.get(), gProbs.get(),
                                                  gTargets.get(), B, T, V, Vp),
                 KernelError);
    for (float p : gProbs.host())
        EXPECT_EQ(p, 7.0f);
    for (float d : gDlogits.host())
        EXPECT_EQ(d, 3.0f);
}

TEST_F(CudaKernelErrorsTest, HeadsMustDivideChannels) {
    DeviceVec<float> buf(*gpu, FVec(3 * 10 * 2 * 2, 0.0f));
    EXPECT_THROW(gpu->attentionForward(buf.get(), buf.get(), buf.get(), buf.get(), 1, 2, 10, 3),
                 KernelError);
}

TEST_F(CudaKernelErrorsTest, NonexistentDeviceIsAnError) {
    EXPECT_THROW(makeCudaKernels(1 << 20), KernelError);
}

} // namespace
} // namespace zerolab
