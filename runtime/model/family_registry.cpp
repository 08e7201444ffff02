// The family registry (families.def) and what every family shares: psi from the
// family's tensors, the presets of all families, and the dispatch of the generic model
// functions (activation_layout.h, unit_calls.h, model_flops.h) to the shape's family.
#include "runtime/model/family.h"

#include <array>
#include <stdexcept>
#include <string>

namespace zerolab {

#define ZEROLAB_FAMILY(Enum, folder) extern const ModelFamily k##Enum##Family;
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY

namespace {

constexpr std::array kFamilies = {
#define ZEROLAB_FAMILY(Enum, folder) &k##Enum##Family,
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY
};

std::int64_t tensorCount(const TensorSpec& t, const ModelShape& s) {
    return t.elements() * (t.role == UnitRole::Block ? s.n_layer : 1);
}

} // namespace

std::span<const ModelFamily* const> modelFamilies() {
    return kFamilies;
}

const ModelFamily& modelFamily(Family id) {
    const auto i = static_cast<std::size_t>(id);
    if (i >= kFamilies.size())
        throw std::invalid_argument("model family " + std::to_string(i) + " is not registered");
    return *kFamilies[i];
}

const ModelFamily* findModelFamily(std::string_view name) {
    for (const ModelFamily* f : kFamilies)
        if (f->name == name)
            return f;
    return nullptr;
}

std::span<const ModelPreset> modelPresets() {
    static const std::vector<ModelPreset> all = [] {
        std::vector<ModelPreset> v;
        for (const ModelFamily* f : kFamilies)
            v.insert(v.end(), f->presets.begin(), f->presets.end());
        return v;
    }();
    return all;
}

std::optional<ModelShape> findModelPreset(std::string_view name) {
    for (const ModelPreset& p : modelPresets())
        if (p.name == name)
            return p.shape;
    return std::nullopt;
}

std::optional<std::int64_t> checkedParamCount(const ModelShape& s) {
    if (s.n_layer < 0 || s.n_head < 0 || s.n_embd < 0 || s.seq_len < 0 || s.vocab_size < 0 ||
        s.padded_vocab_size < 0 || static_cast<std::size_t>(s.family) >= kFamilies.size())
        return std::nullopt;
    std::int64_t total = 0;
    for (const TensorSpec& t : familyOf(s).tensors(s)) {
        std::int64_t n = t.role == UnitRole::Block ? s.n_layer : 1;
        for (std::int64_t f : t.factors)
            if (__builtin_mul_overflow(n, f, &n))
                return std::nullopt;
        if (__builtin_add_overflow(total, n, &total) || total > kMaxParamCount)
            return std::nullopt;
    }
    return total;
}

std::int64_t paramCount(const ModelShape& s) {
    std::int64_t n = 0;
    for (const TensorSpec& t : familyOf(s).tensors(s))
        n += tensorCount(t, s);
    return n;
}

std::int64_t blockParamCount(const ModelShape& s) {
    std::int64_t n = 0;
    for (const TensorSpec& t : familyOf(s).tensors(s))
        if (t.role == UnitRole::Block)
            n += t.elements();
    return n;
}

ActivationFootprint activationFootprint(const ModelShape& s, int B, int T, Recompute r) {
    return familyOf(s).activations(s, B, T, r);
}

std::vector<UnitCall> modelUnitCalls(const ParamLayout& layout, Recompute r) {
    return familyOf(layout.shape).unit_calls(layout, r);
}

double modelFlopsPerToken(const ModelShape& s, int T) {
    return familyOf(s).model_flops_per_token(s, T);
}

double hardwareFlopsPerToken(const ModelShape& s, int T, Recompute r) {
    return familyOf(s).hardware_flops_per_token(s, T, r);
}

std::vector<ModuleFlops> moduleForwardFlops(const ModelShape& s, int T) {
    return familyOf(s).module_forward_flops(s, T);
}

double largestModuleParams(const ModelShape& s) {
    return familyOf(s).largest_module_params(s);
}

} // namespace zerolab
