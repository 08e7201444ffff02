// Llama initialisation of one gather unit, as Hugging Face's LlamaPreTrainedModel.
// _init_weights does it (initializer_range 0.02): counter-based, each value hashed from
// (seed, tensor, layer, element index) (counter_normal.h), so that any split of the flat
// buffer into units, slices or ranks reproduces exactly the same model.
#include "runtime/model/counter_normal.h"
#include "runtime/model/llama/llama.h"

namespace zerolab {

namespace {

bool isNormWeight(LlamaTensor t) {
    return t == LlamaTensor::InputLayernorm || t == LlamaTensor::PostAttentionLayernorm ||
           t == LlamaTensor::Norm;
}
bool isBias(LlamaTensor t) {
    return t == LlamaTensor::QBias || t == LlamaTensor::KBias || t == LlamaTensor::VBias;
}

} // namespace

void initLlamaUnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                         float* unit_params) {
    // HF's initializer_range: every Linear and the embedding, no depth scaling (unlike
    // GPT-2's residual projections).
    constexpr double kStd = 0.02;
    const int layer = unit.index - 1; // meaningful for block units only
    for (std::int64_t i = 0; i < unit.padded_elems; ++i)
        unit_params[i] = 0.0f;
    for (int ti = 0; ti < kLlamaTensorCount; ++ti) {
        const auto t = static_cast<LlamaTensor>(ti);
        std::int64_t n = llamaTensorElements(shape, t);
        if (!unit.has(t) || n == 0 || isBias(t)) // biases stay 0
            continue;
        float* out = unit_params + unit.tensorOffset(t);
        if (isNormWeight(t)) {
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = 1.0f;
            continue;
        }
        // Rows V..Vp-1 of the embedding and an untied head stay 0: never a target (HF does
        // not pad, so Vp == V in its shapes).
        if (t == LlamaTensor::EmbedTokens || t == LlamaTensor::LmHead)
            n = static_cast<std::int64_t>(shape.vocab_size) * shape.n_embd;
        const bool perLayer = llamaTensorRole(t) == UnitRole::Block;
        fillNormal(out, n, kStd, tensorStreamKey(seed, ti, perLayer ? layer : 0));
    }
}

} // namespace zerolab
