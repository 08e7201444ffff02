// Unit spans from the model's UnitAccess calls (timeline_access.h); every call reaches
// the engine unchanged.
#include "runtime/train/timeline_access.h"

namespace zerolab {

void TimelineAccess::endPass() {
    m_rec.close();
    m_rec.sampleMemory();
}

void TimelineAccess::endSpanAtAcquire() {
    if (m_acquiring)
        m_rec.cancel();
    else
        m_rec.close();
    m_acquiring = true;
}

const float* TimelineAccess::params(int unit) {
    endSpanAtAcquire();
    const float* p = m_engine.params(unit);
    if (!m_backward)
        m_rec.open(SpanKind::Forward, unit);
    return p;
}

float* TimelineAccess::grads(int unit) {
    endSpanAtAcquire();
    float* g = m_engine.grads(unit);
    m_rec.open(SpanKind::Backward, unit);
    return g;
}

void TimelineAccess::gradsReady(int unit) {
    m_rec.close();
    m_acquiring = false;
    m_engine.gradsReady(unit);
}

void TimelineAccess::recomputing(int unit) {
    m_rec.close();
    m_acquiring = false;
    m_engine.recomputing(unit);
    m_rec.open(SpanKind::Recompute, unit);
}

} // namespace zerolab
