// Cuts the flat parameter buffer into padded gather units (param_layout.h).
// Element counts come from model_shape.h so that psi has one definition.
#include "runtime/model/param_layout.h"

#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

UnitLayout makeUnit(const ModelShape& s, int index, std::int64_t offset, int pad,
                    bool (*member)(ParamTensor)) {
    UnitLayout u;
    u.index = index;
    u.offset = offset;
    u.tensor_offsets.fill(-1);
    for (int i = 0; i < kParamTensorCount; ++i) {
        const auto t = static_cast<ParamTensor>(i);
        if (!member(t))
            continue;
        u.tensor_offsets[i] = u.elems;
        u.elems += paramTensorElements(s, t);
    }
    u.padded_elems = (u.elems + pad - 1) / pad * pad;
    return u;
}

bool isEmbedding(ParamTensor t) {
    return t == ParamTensor::Wte || t == ParamTensor::Wpe;
}
bool isFinalNorm(ParamTensor t) {
    return t == ParamTensor::Lnfw || t == ParamTensor::Lnfb;
}

} // namespace

ParamLayout makeParamLayout(const ModelShape& s, int pad_multiple) {
    if (pad_multiple < 1)
        throw std::invalid_argument("param layout: pad_multiple must be >= 1, got " +
                                    std::to_string(pad_multiple));
    if (s.n_layer < 1 || s.n_embd < 1 || s.seq_len < 1 || s.padded_vocab_size < 1)
        throw std::invalid_argument("param layout: the model shape is empty");
    ParamLayout p;
    p.shape = s;
    p.pad_multiple = pad_multiple;
    std::int64_t offset = 0;
    auto push = [&](bool (*member)(ParamTensor)) {
        p.units.push_back(makeUnit(s, p.unitCount(), offset, pad_multiple, member));
        offset += p.units.back().padded_elems;
        p.total_elems += p.units.back().elems;
    };
    push(isEmbedding);
    for (int l = 0; l < s.n_layer; ++l)
        push(isPerLayer);
    push(isFinalNorm);
    p.padded_total = offset;
    return p;
}

std::int64_t ParamLayout::flatOffset(ParamTensor t, int layer) const {
    const UnitLayout& u = isPerLayer(t)    ? units[blockUnit(layer)]
                          : isFinalNorm(t) ? units[finalNormUnit()]
                                           : units[embeddingUnit()];
    return u.offset + u.tensorOffset(t);
}

} // namespace zerolab
