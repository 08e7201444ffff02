// ZeRO++'s qgZ: a unit's gradient reduced by two all-to-alls of int4 blocks in place of
// the reduce-scatter (DeepSpeed's all_to_all_quant_reduce). With N = H hosts x L ranks and
// rank r owning slice r of N: hop 1, inside the host, sends local peer j the H slices that
// ranks with place j own; each rank dequantizes and sums what its L peers sent, requantizes,
// and hop 2, across hosts among the ranks with its place, sends each owner its slice; the
// owner dequantizes and sums the H partial sums. Blocks: storage/block_format.h qgzFormat.
#pragma once

#include "runtime/comm/communicator.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/zeropp_plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

class QgzReducer {
public:
    // within: the L ranks of this rank's host, across: the H ranks with its place;
    // payload: plan.qgz_hop1 x 2 + plan.qgz_hop2 x 2 bytes (engine_buffers.h).
    QgzReducer(const ParamLayout& layout, const ZeroPPOptions& o, Communicator& world,
               Communicator& within, Communicator& across, std::uint8_t* payload,
               const EngineBufferPlan& plan);
    // Whether the unit goes through the all-to-alls (else: a reduce-scatter, zeropp_plan.h).
    bool quantized(int unit) const { return m_quantized[static_cast<std::size_t>(unit)] != 0; }
    // The fallbacks in words, one line each (empty when none): said once by the engine.
    const std::vector<std::string>& fallbacks() const { return m_fallbacks; }
    // Collective, in two halves so that the across-host hop overlaps what the caller does
    // next. start: grad holds the unit's whole fp32 gradient (padded_elems); quantizes it,
    // runs hop 1 and starts hop 2, whose handle it returns. Once that handle is waited,
    // finish leaves this rank's summed slice in grad[0, S) (the rest is clobbered). grad
    // and the payloads stay in use until then: one unit in flight at a time.
    CommHandle start(int unit, float* grad);
    void finish(int unit, float* grad);

private:
    const ParamLayout& m_layout;
    Communicator& m_world;
    Communicator& m_within;
    Communicator& m_across;
    BlockFormat m_format;
    int m_L = 1;
    int m_H = 1;
    std::uint8_t* m_hop1Send;
    std::uint8_t* m_hop1Recv;
    std::uint8_t* m_hop2Send;
    std::uint8_t* m_hop2Recv;
    std::vector<char> m_quantized;
    std::vector<std::string> m_fallbacks;
};

} // namespace zerolab
