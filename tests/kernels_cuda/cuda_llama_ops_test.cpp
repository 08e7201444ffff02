// The Llama family's ops on CUDA (RMSNorm, RoPE, SwiGLU) against the CPU kernels on the same
// random inputs: outputs poisoned with NaN on both sides, gradients pre-filled with the same
// values (a backward that overwrites instead of accumulating fails); backward ops get the
// CPU forward's saved tensors. Skipped, saying why, where no CUDA device exists.
#include "kernels/rope.h"
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using test::closeTo;
using test::DeviceVec;
using test::poisoned;
using test::Rng;
using test::toDouble;
using test::toFloat;
using FVec = std::vector<float>;

// Element-wise ops: the CPU's exp approximation (~2 ulp) against expf, and FMA contraction.
constexpr double kElementTol = 1e-5;
// Row reductions in different orders (warp shuffles against SIMD lanes).
constexpr double kReduceTol = 2e-4;

using test::RealSizes;

class CudaLlamaOpsTest : public test::CudaVsCpuTest {
protected:
    void checkRmsnorm(int N, int C);
    void checkRope(int B, int T, int NH, int NKV, int hs);
    void checkSwiglu(std::size_t n);
};

// The real-size cases: Llama-3.1-8B's dimensions at small B*T, with the CPU reference on
// more threads.
class CudaLlamaOpsRealSizeTest : public CudaLlamaOpsTest {
protected:
    CudaLlamaOpsRealSizeTest() { cpuThreads = test::kRealSizeThreads; }
};

void CudaLlamaOpsTest::checkRmsnorm(int N, int C) {
    SCOPED_TRACE("N=" + std::to_string(N) + " C=" + std::to_string(C));
    const float eps = 1e-5f;
    Rng rng(601);
    const FVec inp = toFloat(rng.uniform(N * C, -3, 5)), w = toFloat(rng.uniform(C)),
               dout = toFloat(rng.uniform(N * C)), dinp0 = toFloat(rng.uniform(N * C)),
               dw0 = toFloat(rng.uniform(C));
    FVec out = poisoned(N * C), rstd = poisoned(N), dinp = dinp0, dw = dw0;
    cpu->rmsnormForward(out.data(), rstd.data(), inp.data(), w.data(), N, C, eps);
    cpu->rmsnormBackward(dinp.data(), dw.data(), dout.data(), inp.data(), w.data(), rstd.data(), N,
                         C);

    DeviceVec<float> gInp(*gpu, inp), gW(*gpu, w), gDout(*gpu, dout), gOut(*gpu, poisoned(N * C)),
        gRstd(*gpu, poisoned(N));
    gpu->rmsnormForward(gOut.get(), gRstd.get(), gInp.get(), gW.get(), N, C, eps);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));
    EXPECT_TRUE(closeTo(gRstd.host(), toDouble(rstd), kReduceTol));

    DeviceVec<float> gRstdCpu(*gpu, rstd), gDinp(*gpu, dinp0), gDw(*gpu, dw0);
    gpu->rmsnormBackward(gDinp.get(), gDw.get(), gDout.get(), gInp.get(), gW.get(), gRstdCpu.get(),
                         N, C);
    EXPECT_TRUE(closeTo(gDinp.host(), toDouble(dinp), kReduceTol));
    EXPECT_TRUE(closeTo(gDw.host(), toDouble(dw), kReduceTol));
}

TEST_F(CudaLlamaOpsTest, Rmsnorm) {
    for (auto [N, C] : {std::pair{1, 32}, std::pair{210, 96}, std::pair{129, 4100}})
        checkRmsnorm(N, C);
}

TEST_F(CudaLlamaOpsRealSizeTest, RmsnormLlama8B) {
    checkRmsnorm(RealSizes::kLlamaRows, RealSizes::kLlamaC);
}

// Both backends read the same table: the rotation is 2 products and a sum per element, so
// they agree to an ulp or two (FMA contraction on the GPU). A packed row (q, k, v of a GQA
// layout), k rotated through the pointer offset; q and v must come back bit for bit.
void CudaLlamaOpsTest::checkRope(int B, int T, int NH, int NKV, int hs) {
    const int rs = (NH + 2 * NKV) * hs;
    const std::vector<float> table =
        ropeTable(T, ropeInvFreq(hs, 500000.0, RopeScaling{8.0, 1.0, 4.0, 8192.0}));
    Rng rng(602);
    const FVec x0 = toFloat(rng.uniform(static_cast<std::size_t>(B) * T * rs));
    DeviceVec<float> gTable(*gpu, table);
    for (int part : {0, NH}) { // q (H = NH) at offset 0, then k (H = NKV) at NH * hs
        const int H = part == 0 ? NH : NKV;
        SCOPED_TRACE(part == 0 ? "q" : "k");
        FVec want = x0;
        cpu->ropeForward(want.data() + part * hs, table.data(), B, T, H, hs, rs);
        DeviceVec<float> gx(*gpu, x0);
        gpu->ropeForward(gx.get() + part * hs, gTable.get(), B, T, H, hs, rs);
        const FVec got = gx.host();
        EXPECT_TRUE(closeTo(got, toDouble(want), kElementTol));
        for (std::size_t i = 0; i < got.size(); ++i) {
            const int c = static_cast<int>(i % rs);
            if (c < part * hs || c >= (part + H) * hs) {
                ASSERT_EQ(got[i], x0[i]) << "element " << i << " outside the rotated part";
            }
        }

        FVec wantBack = want;
        cpu->ropeBackward(wantBack.data() + part * hs, table.data(), B, T, H, hs, rs);
        DeviceVec<float> gd(*gpu, want);
        gpu->ropeBackward(gd.get() + part * hs, gTable.get(), B, T, H, hs, rs);
        EXPECT_TRUE(closeTo(gd.host(), toDouble(wantBack), kElementTol));
    }
}

TEST_F(CudaLlamaOpsTest, RopeForwardAndBackwardOnPackedRows) {
    checkRope(3, 131, 8, 2, 64);
}

// Llama-3.1-8B's heads (32 q, 8 kv, 128 channels) over T 512 with its rope scaling.
TEST_F(CudaLlamaOpsRealSizeTest, RopeLlama8B) {
    checkRope(1, RealSizes::kLlamaT, RealSizes::kLlamaNH, RealSizes::kLlamaNKV,
              RealSizes::kLlamaHs);
}

TEST_F(CudaLlamaOpsTest, RopeRefusesOddHeadSize) {
    DeviceVec<float> gx(*gpu, FVec(64, 1.0f)), gTable(*gpu, FVec(64, 0.0f));
    EXPECT_THROW(gpu->ropeForward(gx.get(), gTable.get(), 1, 2, 2, 5, 10), KernelError);
    EXPECT_THROW(gpu->ropeBackward(gx.get(), gTable.get(), 1, 2, 2, 5, 10), KernelError);
}

void CudaLlamaOpsTest::checkSwiglu(std::size_t n) {
    Rng rng(603);
    const FVec gate = toFloat(rng.uniform(n, -12, 12)), up = toFloat(rng.uniform(n, -2, 2)),
               dout = toFloat(rng.uniform(n)), dg0 = toFloat(rng.uniform(n)),
               du0 = toFloat(rng.uniform(n));
    FVec out = poisoned(n), dg = dg0, du = du0;
    cpu->swigluForward(out.data(), gate.data(), up.data(), n);
    cpu->swigluBackward(dg.data(), du.data(), dout.data(), gate.data(), up.data(), n);

    DeviceVec<float> gGate(*gpu, gate), gUp(*gpu, up), gDout(*gpu, dout), gOut(*gpu, poisoned(n)),
        gDg(*gpu, dg0), gDu(*gpu, du0);
    gpu->swigluForward(gOut.get(), gGate.get(), gUp.get(), n);
    gpu->swigluBackward(gDg.get(), gDu.get(), gDout.get(), gGate.get(), gUp.get(), n);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kElementTol));
    EXPECT_TRUE(closeTo(gDg.host(), toDouble(dg), kElementTol));
    EXPECT_TRUE(closeTo(gDu.host(), toDouble(du), kElementTol));
}

// Odd, and above one grid of kMaxBlocks * 256 threads: the grid-stride loops wrap.
TEST_F(CudaLlamaOpsTest, Swiglu) {
    checkSwiglu(1'100'003);
}

// The MLP's hidden activations: 128 rows of F = 14336.
TEST_F(CudaLlamaOpsRealSizeTest, SwigluLlama8B) {
    checkSwiglu(std::size_t{RealSizes::kLlamaRows} * RealSizes::kLlamaF);
}

} // namespace
} // namespace zerolab
