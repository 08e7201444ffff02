// GPT-2 initialisation of one gather unit. Counter-based: each value is hashed from
// (seed, tensor, layer, element index), so that any split of the flat buffer into
// units, slices or ranks reproduces exactly the same model.
#include "runtime/model/gpt2.h"

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

bool isLayerNormWeight(ParamTensor t) {
    return t == ParamTensor::Ln1w || t == ParamTensor::Ln2w || t == ParamTensor::Lnfw;
}
bool isMatrix(ParamTensor t) {
    return t == ParamTensor::Wte || t == ParamTensor::Wpe || t == ParamTensor::Qkvw ||
           t == ParamTensor::Attprojw || t == ParamTensor::Fcw || t == ParamTensor::Fcprojw;
}

} // namespace

void initUnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                    float* unit_params) {
    constexpr double kStd = 0.02;
    const int layer = unit.index - 1; // meaningful for block units only
    for (std::int64_t i = 0; i < unit.padded_elems; ++i)
        unit_params[i] = 0.0f;
    for (int ti = 0; ti < kParamTensorCount; ++ti) {
        const auto t = static_cast<ParamTensor>(ti);
        if (!unit.has(t))
            continue;
        float* out = unit_params + unit.tensorOffset(t);
        std::int64_t n = paramTensorElements(shape, t);
        if (isLayerNormWeight(t)) {
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = 1.0f;
            continue;
        }
        if (!isMatrix(t))
            continue; // biases stay 0
        double std = kStd;
        if (t == ParamTensor::Attprojw || t == ParamTensor::Fcprojw)
            std /= std::sqrt(2.0 * shape.n_layer);
        if (t == ParamTensor::Wte) // padded vocabulary rows stay 0: never a target
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
