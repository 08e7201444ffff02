// Launch geometry of every CUDA kernel (kernels/launch_geometry.h) at real model sizes,
// checked without a GPU: grid and block within the device limits, every row or element
// covered, and the sizes that pass 2^31 named (their kernels index in 64 bits: the lint
// tests/kernels_cuda/check_cuda_lint.py refuses an int built from blockIdx). A new
// kernel adds its launch to kLaunches.
#include "kernels/launch_geometry.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>

namespace zerolab {
namespace {

struct Model {
    const char* name;
    std::int64_t B, T, C, NH, Vp, ffn;
    std::int64_t N() const { return B * T; }
};

// gpt2-124m at micro-batches 8 to 64 (Vp 50304); a Llama-8B-like shape (C 4096, T 4096,
// SwiGLU 14336, V 128256) at micro-batches 1 to 8.
const Model kModels[] = {
    {"gpt2-124m B8", 8, 1024, 768, 12, 50304, 3072},
    {"gpt2-124m B64", 64, 1024, 768, 12, 50304, 3072},
    {"llama-8b B1", 1, 4096, 4096, 32, 128256, 14336},
    {"llama-8b B8", 8, 4096, 4096, 32, 128256, 14336},
};

enum class Kind {
    GridStride,  // any grid covers the work (the loop strides); blocks capped at kMaxBlocks
    WarpPerRow,  // blocks x (threads / 32) >= rows
    BlockPerRow, // blocks >= rows
    Fixed,       // a fixed grid whose kernel loops over the work
};

struct Launch {
    const char* kernel;
    Kind kind;
    // The rows or elements the launch must cover at a model's size (its largest use).
    std::function<std::int64_t(const Model&)> work;
    // The geometry the .cu computes for it.
    std::function<launch::Geometry(const Model&)> geometry;
};

std::int64_t largestLinearOut(const Model& m) {
    return std::max({3 * m.C, m.ffn, m.Vp});
}

launch::Geometry strided(std::int64_t n) {
    return launch::gridStride(static_cast<std::uint64_t>(n));
}

// Every launch in kernels/cuda, as its .cu computes it.
const Launch kLaunches[] = {
    {"fillRowsKernel (matmul.cu)", Kind::GridStride,
     [](const Model& m) { return m.N() * largestLinearOut(m); },
     [](const Model& m) { return strided(m.N() * largestLinearOut(m)); }},
    {"causalSoftmaxKernel (attention.cu)", Kind::WarpPerRow,
     [](const Model& m) { return m.B * m.NH * m.T; },
     [](const Model& m) { return launch::warpPerRow(m.B * m.NH * m.T, "causalSoftmaxKernel"); }},
    {"causalSoftmaxBackwardKernel (attention.cu)", Kind::WarpPerRow,
     [](const Model& m) { return m.B * m.NH * m.T; },
     [](const Model& m) {
         return launch::warpPerRow(m.B * m.NH * m.T, "causalSoftmaxBackwardKernel");
     }},
    {"layernormForwardKernel (layernorm.cu)", Kind::WarpPerRow,
     [](const Model& m) { return m.N(); },
     [](const Model& m) { return launch::warpPerRow(m.N(), "layernormForwardKernel"); }},
    {"layernormBackwardKernel (layernorm.cu)", Kind::WarpPerRow,
     [](const Model& m) { return m.N(); },
     [](const Model& m) { return launch::warpPerRow(m.N(), "layernormBackwardKernel"); }},
    {"checkTargetsKernel (cross_entropy.cu)", Kind::GridStride,
     [](const Model& m) { return m.N(); }, [](const Model& m) { return strided(m.N()); }},
    {"softmaxCrossEntropyKernel (cross_entropy.cu)", Kind::BlockPerRow,
     [](const Model& m) { return m.N(); },
     [](const Model& m) { return launch::blockPerRow(m.N(), 1024, "softmaxCrossEntropyKernel"); }},
    {"crossEntropyBackwardKernel (cross_entropy.cu)", Kind::GridStride,
     [](const Model& m) { return m.N() * m.Vp; },
     [](const Model& m) { return strided(m.N() * m.Vp); }},
    {"gelu/residual kernels (elementwise.cu)", Kind::GridStride,
     [](const Model& m) { return m.N() * m.ffn; },
     [](const Model& m) { return strided(m.N() * m.ffn); }},
    {"encoder kernels (elementwise.cu)", Kind::GridStride,
     [](const Model& m) { return m.N() * m.C; },
     [](const Model& m) { return strided(m.N() * m.C); }},
    // Vector ops over a parameter shard or the attention matrices: the largest buffer
    // they touch is (B,NH,T,T) as bf16 copies for the attention products.
    {"vector ops, adamw (vector_ops.cu, adamw.cu)", Kind::GridStride,
     [](const Model& m) { return m.B * m.NH * m.T * m.T; },
     [](const Model& m) { return strided(m.B * m.NH * m.T * m.T); }},
    {"narrowHeadKernel (vector_ops.cu)", Kind::Fixed, [](const Model&) { return 1024; },
     [](const Model&) { return launch::fixed(1, launch::kBlock, "narrowHeadKernel"); }},
    {"sumSquaresPartialKernel (vector_ops.cu)", Kind::Fixed,
     [](const Model& m) { return m.B * m.NH * m.T * m.T; },
     [](const Model&) { return launch::fixed(512, launch::kBlock, "sumSquaresPartialKernel"); }},
    {"sumPartialsKernel (vector_ops.cu)", Kind::Fixed, [](const Model&) { return 512; },
     [](const Model&) { return launch::fixed(1, launch::kBlock, "sumPartialsKernel"); }},
};

TEST(LaunchGeometry, EveryLaunchFitsTheDeviceAndCoversItsWorkAtRealSizes) {
    for (const Model& m : kModels) {
        for (const Launch& l : kLaunches) {
            SCOPED_TRACE(std::string(m.name) + ": " + l.kernel);
            const std::int64_t work = l.work(m);
            ASSERT_GT(work, 0);
            launch::Geometry g;
            ASSERT_NO_THROW(g = l.geometry(m));
            EXPECT_EQ(launch::problem(g.blocks, g.threads), "");
            EXPECT_GE(g.blocks, 1u);
            EXPECT_LE(g.blocks, launch::kMaxGridX);
            EXPECT_LE(g.threads, launch::kMaxThreads);
            EXPECT_EQ(g.threads % launch::kWarp, 0);
            const std::uint64_t threads = static_cast<std::uint64_t>(g.blocks) * g.threads;
            switch (l.kind) {
            case Kind::GridStride:
                EXPECT_LE(g.blocks, launch::kMaxBlocks);
                // Fewer threads than elements is what the stride loop is for; more blocks
                // than needed would be idle.
                EXPECT_LE(static_cast<std::uint64_t>(g.blocks - 1) * g.threads,
                          static_cast<std::uint64_t>(work));
                break;
            case Kind::WarpPerRow:
                EXPECT_GE(threads / launch::kWarp, static_cast<std::uint64_t>(work));
                EXPECT_LT((static_cast<std::uint64_t>(g.blocks) - 1) * (g.threads / launch::kWarp),
                          static_cast<std::uint64_t>(work));
                break;
            case Kind::BlockPerRow:
                EXPECT_EQ(g.blocks, static_cast<std::uint64_t>(work));
                break;
            case Kind::Fixed:
                break;
            }
        }
    }
}

// The sizes past 2^31 at real scale: the kernels over them take std::size_t counts and
// index in 64 bits; the Kernels interface's int arguments (B*T rows, T, C, Vp) still fit.
TEST(LaunchGeometry, RealSizesPassIntWhereTheKernelsIndexIn64Bits) {
    for (const Model& m : kModels) {
        SCOPED_TRACE(m.name);
        EXPECT_LE(m.N(), INT_MAX) << "rows B*T are an int in the Kernels interface";
        EXPECT_LE(m.B * m.NH * m.T, INT_MAX) << "attention rows";
        EXPECT_LE(m.N() * 3 * m.C, std::int64_t{1} << 40);
    }
    // gpt2-124m at B=64: logits B*T*Vp = 3.3e9; Llama at B=8: logits 4.2e9 and the
    // (B,NH,T,T) attention matrices 4.3e9 elements.
    EXPECT_GT(kModels[1].N() * kModels[1].Vp, INT_MAX);
    EXPECT_GT(kModels[3].N() * kModels[3].Vp, INT_MAX);
    EXPECT_GT(kModels[3].B * kModels[3].NH * kModels[3].T * kModels[3].T, INT_MAX);
    // ... and a row index times its width passes 2^31 inside the kernels too.
    EXPECT_GT((kModels[3].B * kModels[3].NH * kModels[3].T - 1) * kModels[3].T, INT_MAX);
}

TEST(LaunchGeometry, AGridPastTheLimitIsAnErrorNamingTheKernel) {
    // One block per row at 2^31 rows would have wrapped when cast to unsigned grid.x.
    try {
        launch::blockPerRow(std::uint64_t{1} << 31, 1024, "softmaxCrossEntropyKernel");
        FAIL() << "no KernelError";
    } catch (const KernelError& e) {
        EXPECT_NE(std::string(e.what()).find("softmaxCrossEntropyKernel"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("2147483648 blocks"), std::string::npos) << e.what();
    }
    EXPECT_THROW(launch::warpPerRow((std::uint64_t{1} << 31) * 8, "causalSoftmaxKernel"),
                 KernelError);
    EXPECT_NO_THROW(launch::warpPerRow((std::uint64_t{1} << 31) * 8 - 8, "causalSoftmaxKernel"));
    EXPECT_THROW(launch::fixed(1, 1056, "k"), KernelError);
    EXPECT_THROW(launch::fixed(1, 100, "k"), KernelError);
    EXPECT_THROW(launch::fixed(0, 256, "k"), KernelError);
    // A grid-stride launch never exceeds its cap, whatever the count, and is never empty.
    EXPECT_EQ(launch::gridStride(0).blocks, 1u);
    EXPECT_EQ(launch::gridStride(std::uint64_t{1} << 40).blocks, launch::kMaxBlocks);
    EXPECT_EQ(launch::gridStride(257).blocks, 2u);
}

} // namespace
} // namespace zerolab
