// The Llama network. WORK IN PROGRESS: being written (runtime/model/llama/).
#include "runtime/model/network.h"

#include <stdexcept>

namespace zerolab {

std::unique_ptr<Network> makeLlamaNetwork(const ModelShape&, int, int, Kernels&, MemoryLedger&,
                                          Recompute) {
    throw std::logic_error("the Llama network is not written yet");
}

void initLlamaUnitParams(const ModelShape&, const UnitLayout&, std::uint64_t, float*) {
    throw std::logic_error("the Llama init is not written yet");
}

} // namespace zerolab
