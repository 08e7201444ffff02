// The CUDA flash attention against the CPU one on the same fresh random inputs, GPT-2's
// packed qkv and Llama's grouped-query layout: outputs poisoned with NaN on both sides
// (an output the kernel forgets to write fails), gradients pre-filled with the same
// random values (a backward that overwrites instead of accumulating fails). Skips,
// naming the reason, where no CUDA device exists.
#include "tests/kernels_cuda/cuda_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <ostream>
#include <string>

namespace zerolab {
namespace {

using test::closeTo;
using test::DeviceVec;
using test::poisoned;
using test::Rng;
using test::toDouble;
using test::toFloat;
using FVec = std::vector<float>;

// Both sides compute in fp32 and sum in different orders (32-key tiles and warp sums on
// the device, 256-key chunks, 16-row diagonal strips and SIMD lanes on the CPU), and the
// CPU uses its exp approximation (~2 ulp): the bar of cuda_kernels_test.cpp for products
// and row reductions.
constexpr double kReduceTol = 2e-4;

struct FlashCase {
    const char* name;
    FlashAttentionDims d;
    bool packed; // q, k, v side by side in one buffer (GPT-2), else three buffers
};

void PrintTo(const FlashCase& c, std::ostream* os) {
    *os << c.name;
}

class CudaFlashAttentionTest : public test::CudaVsCpuTest,
                               public ::testing::WithParamInterface<FlashCase> {
protected:
    CudaFlashAttentionTest() {
        if (GetParam().d.T >= test::RealSizes::kLlamaT)
            cpuThreads = test::kRealSizeThreads;
    }
};

TEST_P(CudaFlashAttentionTest, MatchesCpuForwardAndBackward) {
    const FlashCase& c = GetParam();
    const FlashAttentionDims& d = c.d;
    const std::size_t tokens = static_cast<std::size_t>(d.B) * d.T;
    const std::size_t nOut = tokens * d.NH * d.hs;
    Rng rng(36);
    // Packed: one buffer of stride 3C, q at 0, k at C, v at 2C. Separate: three buffers.
    const std::size_t kOff = c.packed ? static_cast<std::size_t>(d.NH) * d.hs : 0;
    const std::size_t vOff = 2 * kOff;
    const std::size_t nQ = tokens * d.qStride, nK = c.packed ? 0 : tokens * d.kStride,
                      nV = c.packed ? 0 : tokens * d.vStride;
    const FVec q = toFloat(rng.uniform(nQ, -2, 2)), k = toFloat(rng.uniform(nK, -2, 2)),
               v = toFloat(rng.uniform(nV)), dout = toFloat(rng.uniform(nOut));
    const FVec dq0 = toFloat(rng.uniform(nQ)), dk0 = toFloat(rng.uniform(nK)),
               dv0 = toFloat(rng.uniform(nV));

    // The CPU's results.
    FVec cq = q, ck = k, cv = v, cDout = dout;
    const auto views = [&](float* qb, float* kb, float* vb) {
        return c.packed ? std::array<float*, 3>{qb, qb + kOff, qb + vOff}
                        : std::array<float*, 3>{qb, kb, vb};
    };
    FVec out = poisoned(nOut), lse = poisoned(d.rowCount());
    const auto cIn = views(cq.data(), ck.data(), cv.data());
    cpu->flashAttentionForward(out.data(), lse.data(), cIn[0], cIn[1], cIn[2], d);
    FVec dq = dq0, dk = dk0, dv = dv0, delta = poisoned(d.rowCount());
    const auto cGrad = views(dq.data(), dk.data(), dv.data());
    cpu->flashAttentionBackward(cGrad[0], cGrad[1], cGrad[2], delta.data(), cDout.data(),
                                out.data(), lse.data(), cIn[0], cIn[1], cIn[2], d);

    // The device's, from the same inputs (nK = nV = 0 when packed: one-element stand-ins).
    DeviceVec<float> gQ(*gpu, q), gK(*gpu, nK ? k : FVec(1)), gV(*gpu, nV ? v : FVec(1)),
        gDout(*gpu, dout), gOut(*gpu, poisoned(nOut)), gLse(*gpu, poisoned(d.rowCount())),
        gDelta(*gpu, poisoned(d.rowCount())), gDq(*gpu, dq0), gDk(*gpu, nK ? dk0 : FVec(1)),
        gDv(*gpu, nV ? dv0 : FVec(1));
    const auto gIn = views(gQ.get(), gK.get(), gV.get());
    gpu->flashAttentionForward(gOut.get(), gLse.get(), gIn[0], gIn[1], gIn[2], d);
    EXPECT_TRUE(closeTo(gOut.host(), toDouble(out), kReduceTol));
    EXPECT_TRUE(closeTo(gLse.host(), toDouble(lse), kReduceTol));
    const auto gGrad = views(gDq.get(), gDk.get(), gDv.get());
    gpu->flashAttentionBackward(gGrad[0], gGrad[1], gGrad[2], gDelta.get(), gDout.get(), gOut.get(),
                                gLse.get(), gIn[0], gIn[1], gIn[2], d);
    EXPECT_TRUE(closeTo(gDelta.host(), toDouble(delta), kReduceTol));
    EXPECT_TRUE(closeTo(gDq.host(), toDouble(dq), kReduceTol));
    if (!c.packed) {
        EXPECT_TRUE(closeTo(gDk.host(), toDouble(dk), kReduceTol));
        EXPECT_TRUE(closeTo(gDv.host(), toDouble(dv), kReduceTol));
    }
}

FlashAttentionDims padded(FlashAttentionDims d, int pad) {
    d.qStride += pad;
    d.kStride += pad;
    d.vStride += pad;
    return d;
}

// T = 1; T = 70 and 130 with ragged last tiles (32-row device tiles, 64-row CPU tiles);
// hs = 12 (odd head offsets), 64 (GPT-2, Llama-3.2-1B) and 128 (Llama-3.1-8B, over 48 KiB
// of shared memory: the opt-in path); GQA with NKV = NH/4 and 1, padded strides.
INSTANTIATE_TEST_SUITE_P(
    Layouts, CudaFlashAttentionTest,
    ::testing::Values(
        FlashCase{"gpt2_T1", FlashAttentionDims::packedQkv(3, 1, 24, 2), true},
        FlashCase{"gpt2_T70_hs12", FlashAttentionDims::packedQkv(2, 70, 48, 4), true},
        FlashCase{"gpt2_T130_hs64", FlashAttentionDims::packedQkv(2, 130, 128, 2), true},
        FlashCase{"gqa_T100_nkv2", FlashAttentionDims::separate(2, 100, 8, 2, 16), false},
        FlashCase{"mqa_T70_padded", padded(FlashAttentionDims::separate(1, 70, 4, 1, 24), 3),
                  false},
        FlashCase{"gqa_T96_hs128", FlashAttentionDims::separate(1, 96, 4, 2, 128), false}),
    [](const ::testing::TestParamInfo<FlashCase>& info) { return std::string(info.param.name); });

// The models' own attention: GPT-2 124M's packed qkv at T 1024 (12 heads of 64), and
// Llama-3.1-8B's grouped-query layout (32 query heads, 8 key/value heads of 128) at T 512.
using test::RealSizes;
INSTANTIATE_TEST_SUITE_P(
    RealSize, CudaFlashAttentionTest,
    ::testing::Values(
        FlashCase{"gpt2_124m_T1024",
                  FlashAttentionDims::packedQkv(1, RealSizes::kGpt2T, RealSizes::kGpt2C,
                                                RealSizes::kGpt2NH),
                  true},
        FlashCase{"llama8b_T512",
                  FlashAttentionDims::separate(1, RealSizes::kLlamaT, RealSizes::kLlamaNH,
                                               RealSizes::kLlamaNKV, RealSizes::kLlamaHs),
                  false}),
    [](const ::testing::TestParamInfo<FlashCase>& info) { return std::string(info.param.name); });

} // namespace
} // namespace zerolab
