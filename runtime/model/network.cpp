// The network registry (families.def): makeNetwork and initUnitParams of the shape's
// family.
#include "runtime/model/network.h"

#include <stdexcept>
#include <string>

namespace zerolab {

#define ZEROLAB_FAMILY(Enum, folder)                                                               \
    std::unique_ptr<Network> make##Enum##Network(const ModelShape&, int, int, Kernels&,            \
                                                 MemoryLedger&, Recompute);                        \
    void init##Enum##UnitParams(const ModelShape&, const UnitLayout&, std::uint64_t, float*);
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY

std::unique_ptr<Network> makeNetwork(const ModelShape& shape, int B, int T, Kernels& kernels,
                                     MemoryLedger& ledger, Recompute recompute) {
    switch (shape.family) {
#define ZEROLAB_FAMILY(Enum, folder)                                                               \
    case Family::Enum:                                                                             \
        return make##Enum##Network(shape, B, T, kernels, ledger, recompute);
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY
    }
    throw std::invalid_argument("model family " + std::to_string(static_cast<int>(shape.family)) +
                                " is not registered");
}

void initUnitParams(const ModelShape& shape, const UnitLayout& unit, std::uint64_t seed,
                    float* unit_params) {
    switch (shape.family) {
#define ZEROLAB_FAMILY(Enum, folder)                                                               \
    case Family::Enum:                                                                             \
        return init##Enum##UnitParams(shape, unit, seed, unit_params);
#include "runtime/model/families.def"
#undef ZEROLAB_FAMILY
    }
    throw std::invalid_argument("model family " + std::to_string(static_cast<int>(shape.family)) +
                                " is not registered");
}

} // namespace zerolab
