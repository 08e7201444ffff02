// GPT-2 initialisation of one gather unit. Counter-based: each value is hashed from
// (seed, tensor, layer, element index), so that any split of the flat buffer into
// units, slices or ranks reproduces exactly the same model.
#include "runtime/model/counter_normal.h"
#include "runtime/model/gpt2/gpt2.h"

#include <cmath>

namespace zerolab {

namespace {

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
        fillNormal(out, n, std, tensorStreamKey(seed, ti, isPerLayer(t) ? layer : 0));
    }
}

} // namespace zerolab
