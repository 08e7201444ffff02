// The Llama family's description against its network, kernel by kernel: for each of the
// network's calls to its UnitAccess, the kernels it really runs until the next call (a
// recording Kernels) are the description's compute_ops of that call's piece (family.h),
// in every recompute mode, tied and untied, with and without biases, under GQA. The
// step-time model prices exactly these lists, so a kernel added to llama.cpp without its
// description fails here.
#include "compute_ops_check.h"
#include "llama_test_util.h"

#include <gtest/gtest.h>

#include <string>

namespace zerolab {
namespace {

TEST(LlamaComputeOps, AreTheKernelsTheNetworkRuns) {
    std::vector<std::pair<std::string, ModelShape>> shapes = {
        {"llama-nano", *findModelPreset("llama-nano")},
        {"llama-micro", *findModelPreset("llama-micro")},
        {"untied mha bias",
         test::smallLlamaShape({.n_kv_head = 4, .tied = false, .qkv_bias = true})},
        {"tied gqa4 bias", test::smallLlamaShape({.n_kv_head = 1, .tied = true, .qkv_bias = true})},
    };
    for (const auto& [name, s] : shapes)
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            SCOPED_TRACE(name + " " + std::string(recomputeName(r)));
            test::checkComputeOps(s, r);
        }
}

} // namespace
} // namespace zerolab
