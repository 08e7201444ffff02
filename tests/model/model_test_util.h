// Shared helpers of the model tests: a CPU kernels instance, random tokens and
// random (non-GPT-2) parameters that exercise every path, biases and LN included.
#pragma once

#include "kernels/kernels.h"
#include "runtime/model/gpt2/gpt2.h"
#include "runtime/model/param_layout.h"

#include <cstdint>
#include <random>
#include <vector>

namespace zerolab::test {

inline ModelShape nanoShape() {
    return *findModelPreset("nano");
}

inline std::vector<int> randomTokens(int count, int limit, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(0, limit - 1);
    std::vector<int> v(static_cast<std::size_t>(count));
    for (int& x : v)
        x = d(rng);
    return v;
}

// Matrices N(0, 0.1), biases N(0, 0.1), LN weights 1 + N(0, 0.1); unit padding 0.
inline void randomParams(const ParamLayout& layout, std::uint32_t seed, std::vector<float>& flat) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 0.1f);
    flat.assign(static_cast<std::size_t>(layout.padded_total), 0.0f);
    for (const UnitLayout& u : layout.units)
        for (int ti = 0; ti < kGpt2TensorCount; ++ti) {
            const auto t = static_cast<Gpt2Tensor>(ti);
            if (!u.has(t))
                continue;
            const bool lnWeight =
                t == Gpt2Tensor::Ln1w || t == Gpt2Tensor::Ln2w || t == Gpt2Tensor::Lnfw;
            float* p = flat.data() + u.offset + u.tensorOffset(t);
            for (std::int64_t i = 0; i < gpt2TensorElements(layout.shape, t); ++i)
                p[i] = (lnWeight ? 1.0f : 0.0f) + d(rng);
        }
}

inline void initAllUnits(const ParamLayout& layout, std::uint64_t seed, std::vector<float>& flat) {
    flat.assign(static_cast<std::size_t>(layout.padded_total), 0.0f);
    for (const UnitLayout& u : layout.units)
        initUnitParams(layout.shape, u, seed, flat.data() + u.offset);
}

} // namespace zerolab::test
