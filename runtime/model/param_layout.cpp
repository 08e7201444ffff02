// Cuts the flat parameter buffer into padded gather units (param_layout.h). The
// tensors and their element counts come from the family (family.h) so that psi has
// one definition per family.
#include "runtime/model/param_layout.h"

#include "runtime/model/family.h"

#include <stdexcept>
#include <string>

namespace zerolab {

namespace {

UnitLayout makeUnit(const std::vector<TensorSpec>& tensors, int index, std::int64_t offset, int pad,
                    UnitRole role) {
    UnitLayout u;
    u.index = index;
    u.offset = offset;
    u.tensor_offsets.fill(-1);
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (tensors[i].role != role)
            continue;
        u.tensor_offsets[i] = u.elems;
        u.elems += tensors[i].elements();
    }
    u.padded_elems = (u.elems + pad - 1) / pad * pad;
    return u;
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
    p.tensors = familyOf(s).tensors(s);
    p.pad_multiple = pad_multiple;
    std::int64_t offset = 0;
    auto push = [&](UnitRole role) {
        p.units.push_back(makeUnit(p.tensors, p.unitCount(), offset, pad_multiple, role));
        offset += p.units.back().padded_elems;
        p.total_elems += p.units.back().elems;
    };
    push(UnitRole::Embedding);
    for (int l = 0; l < s.n_layer; ++l)
        push(UnitRole::Block);
    push(UnitRole::Final);
    p.padded_total = offset;
    return p;
}

std::int64_t ParamLayout::flatOffset(int t, int layer) const {
    const UnitRole role = tensors[static_cast<std::size_t>(t)].role;
    const UnitLayout& u = role == UnitRole::Block   ? units[blockUnit(layer)]
                          : role == UnitRole::Final ? units[finalNormUnit()]
                                                    : units[embeddingUnit()];
    return u.offset + u.tensorOffset(t);
}

} // namespace zerolab
