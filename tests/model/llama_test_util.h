// Shared helpers of the Llama model tests: small shapes with every option, and random
// parameters (not HF's init) that exercise every path, biases and norm weights included.
#pragma once

#include "runtime/model/llama/llama.h"
#include "runtime/model/param_layout.h"

#include <cstdint>
#include <random>
#include <vector>

namespace zerolab::test {

struct LlamaOptions {
    int n_kv_head = 2; // of 4 query heads
    bool tied = true;
    bool qkv_bias = false;
    int vocab = 20;
    int padded_vocab = 20;
};

// L = 2, NH = 4 heads of hd = 4 over C = 12 (Q = 16 != C, so head_dim is not C / NH),
// F = 20, context 8; RoPE theta 10000 unscaled (a test sets the others).
inline ModelShape smallLlamaShape(const LlamaOptions& o = {}) {
    ModelShape s;
    s.family = Family::Llama;
    s.n_layer = 2;
    s.n_head = 4;
    s.n_kv_head = o.n_kv_head;
    s.head_dim = 4;
    s.n_embd = 12;
    s.ffn_dim = 20;
    s.seq_len = 8;
    s.vocab_size = o.vocab;
    s.padded_vocab_size = o.padded_vocab;
    s.tied_head = o.tied;
    s.qkv_bias = o.qkv_bias;
    s.norm_eps = 1e-5;
    s.rope_theta = 10000.0;
    s.attention = AttentionKernel::Flash;
    return s;
}

// Every present tensor N(0, 0.2), norm weights 1 + N(0, 0.2); unit padding 0.
inline void randomLlamaParams(const ParamLayout& layout, std::uint32_t seed,
                              std::vector<float>& flat) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 0.2f);
    flat.assign(static_cast<std::size_t>(layout.padded_total), 0.0f);
    for (const UnitLayout& u : layout.units)
        for (int ti = 0; ti < kLlamaTensorCount; ++ti) {
            const auto t = static_cast<LlamaTensor>(ti);
            const std::int64_t n = llamaTensorElements(layout.shape, t);
            if (!u.has(t) || n == 0)
                continue;
            const bool norm = t == LlamaTensor::InputLayernorm ||
                              t == LlamaTensor::PostAttentionLayernorm || t == LlamaTensor::Norm;
            float* p = flat.data() + u.offset + u.tensorOffset(t);
            for (std::int64_t i = 0; i < n; ++i)
                p[i] = (norm ? 1.0f : 0.0f) + d(rng);
        }
}

} // namespace zerolab::test
