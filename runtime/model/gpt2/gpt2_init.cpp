// GPT-2 initialisation of one gather unit. Counter-based: each value is hashed from
// (seed, tensor, layer, element index), so that any split of the flat buffer into
// units, slices or ranks reproduces exactly the same model.
#include "runtime/model/gpt2/gpt2.h"

#include <cmath>
#include <numbers>

namespace zerolab {

namespace {

std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Standard normals 2*pair and 2*pair+1 of the stream `key`: Box-Muller on two 32-bit
// uniforms in (0,1) taken from one 64-bit hash, its cosine and sine halves.
void normalPairAt(std::uint64_t key, std::uint64_t pair, double& even, double& odd) {
    const std::uint64_t h = splitMix64(key + splitMix64(pair));
    const double u1 = (static_cast<double>(h >> 32) + 0.5) * 0x1p-32;
    const double u2 = (static_cast<double>(h & 0xFFFFFFFFull) + 0.5) * 0x1p-32;
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * std::numbers::pi * u2;
    even = r * std::cos(a);
    odd = r * std::sin(a);
}

bool isLayerNormWeight(Gpt2Tensor t) {
    return t == Gpt2Tensor::Ln1w || t == Gpt2Tensor::Ln2w || t == Gpt2Tensor::Lnfw;
}
bool isMatrix(Gpt2Tensor t) {
    return t == Gpt2Tensor::Wte || t == Gpt2Tensor::Wpe || t == Gpt2Tensor::Qkvw ||
           t == Gpt2Tensor::Attprojw || t == Gpt2Tensor::Fcw || t == Gpt2Tensor::Fcprojw;
}

} // namespace

void initGpt2UnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                        float* unit_params) {
    constexpr double kStd = 0.02;
    const int layer = unit.index - 1; // meaningful for block units only
    for (std::int64_t i = 0; i < unit.padded_elems; ++i)
        unit_params[i] = 0.0f;
    for (int ti = 0; ti < kGpt2TensorCount; ++ti) {
        const auto t = static_cast<Gpt2Tensor>(ti);
        if (!unit.has(t))
            continue;
        float* out = unit_params + unit.tensorOffset(t);
        std::int64_t n = gpt2TensorElements(shape, t);
        if (isLayerNormWeight(t)) {
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = 1.0f;
            continue;
        }
        if (!isMatrix(t))
            continue; // biases stay 0
        double std = kStd;
        if (t == Gpt2Tensor::Attprojw || t == Gpt2Tensor::Fcprojw)
            std /= std::sqrt(2.0 * shape.n_layer);
        if (t == Gpt2Tensor::Wte) // padded vocabulary rows stay 0: never a target
            n = static_cast<std::int64_t>(shape.vocab_size) * shape.n_embd;
        const std::uint64_t key =
            splitMix64(seed ^ splitMix64((static_cast<std::uint64_t>(ti) << 32) |
                                         static_cast<std::uint32_t>(isPerLayer(t) ? layer : 0)));
        for (std::int64_t i = 0; i < n; i += 2) {
            double even = 0.0, odd = 0.0;
            normalPairAt(key, static_cast<std::uint64_t>(i / 2), even, odd);
            out[i] = static_cast<float>(std * even);
            if (i + 1 < n)
                out[i + 1] = static_cast<float>(std * odd);
        }
    }
}

} // namespace zerolab
