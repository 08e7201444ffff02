// qgZ's two-hop quantized gradient reduction; see zeropp_reduce.h. Host memory only.
#include "runtime/engine/zeropp_reduce.h"

#include "runtime/comm/quantize.h"

#include <algorithm>

namespace zerolab {

QgzReducer::QgzReducer(const ParamLayout& layout, const ZeroPPOptions& o, Communicator& world,
                       Communicator& within, Communicator& across, std::uint8_t* payload,
                       const EngineBufferPlan& plan)
    : m_layout(layout), m_world(world), m_within(within), m_across(across),
      m_format(qgzFormat(o.n_embd)), m_L(within.size()), m_H(across.size()), m_hop1Send(payload),
      m_hop1Recv(payload + plan.qgz_hop1), m_hop2Send(payload + 2 * plan.qgz_hop1),
      m_hop2Recv(payload + 2 * plan.qgz_hop1 + plan.qgz_hop2) {
    m_quantized.assign(static_cast<std::size_t>(layout.unitCount()), 0);
    for (int u = 0; u < layout.unitCount(); ++u) {
        const auto why = qgzFallback(layout, u, world.size());
        m_quantized[static_cast<std::size_t>(u)] = !why;
        if (why)
            m_fallbacks.push_back("qgZ: " + *why +
                                  ": its gradient is reduce-scattered, as "
                                  "DeepSpeed does");
    }
}

CommHandle QgzReducer::start(int unit, float* grad) {
    const std::int64_t S =
        m_layout.units[static_cast<std::size_t>(unit)].padded_elems / m_world.size();
    const std::int64_t pb = m_format.payloadBytes(S);
    // Hop 1: local peer j gets the slices owned by ranks h*L + j, h = 0..H-1, each in blocks.
    for (int j = 0; j < m_L; ++j)
        for (int h = 0; h < m_H; ++h)
            quantizeBlocks(grad + (static_cast<std::int64_t>(h) * m_L + j) * S, S, m_format,
                           m_hop1Send + (static_cast<std::int64_t>(j) * m_H + h) * pb);
    m_within.allToAll(m_hop1Send, m_hop1Recv, static_cast<std::size_t>(m_H * pb), CommDType::U8);
    // The host's sum of the H slices with this rank's place, in grad[0, H*S).
    std::fill(grad, grad + m_H * S, 0.0f);
    for (int j = 0; j < m_L; ++j)
        for (int h = 0; h < m_H; ++h)
            dequantizeAddBlocks(m_hop1Recv + (static_cast<std::int64_t>(j) * m_H + h) * pb, S,
                                m_format, grad + h * S);
    // Hop 2: the host's partial sum of slice (h, place) to its owner, rank h of `across`.
    for (int h = 0; h < m_H; ++h)
        quantizeBlocks(grad + h * S, S, m_format, m_hop2Send + h * pb);
    return m_across.startAllToAll(m_hop2Send, m_hop2Recv, static_cast<std::size_t>(pb),
                                  CommDType::U8);
}

void QgzReducer::finish(int unit, float* grad) {
    const std::int64_t S =
        m_layout.units[static_cast<std::size_t>(unit)].padded_elems / m_world.size();
    const std::int64_t pb = m_format.payloadBytes(S);
    std::fill(grad, grad + S, 0.0f);
    for (int h = 0; h < m_H; ++h)
        dequantizeAddBlocks(m_hop2Recv + h * pb, S, m_format, grad);
}

} // namespace zerolab
