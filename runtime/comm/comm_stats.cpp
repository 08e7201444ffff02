// Communication statistics (nccl-tests' bus-bandwidth factors) and the
// CommHandle that non-blocking collectives return.
#include "runtime/comm/comm_handle_state.h"
#include "runtime/comm/communicator.h"

namespace zerolab {

double CollectiveStats::busbwGbps(Collective c, int world) const {
    if (ms <= 0 || bytes <= 0 || world < 2)
        return 0;
    const double algbw = static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
    return algbw * (c == Collective::Broadcast ? 1.0 : ringTrafficFactor(c, world));
}

CommStats& CommStats::operator+=(const CommStats& o) {
    for (std::size_t i = 0; i < kCollectiveCount; ++i) {
        per[i].ms += o.per[i].ms;
        per[i].bytes += o.per[i].bytes;
        per[i].calls += o.per[i].calls;
    }
    exposed_ms += o.exposed_ms;
    return *this;
}

double CommStats::totalMs() const {
    double t = 0;
    for (const auto& s : per)
        t += s.ms;
    return t;
}

long long CommStats::totalBytes() const {
    long long b = 0;
    for (const auto& s : per)
        b += s.bytes;
    return b;
}

CommTraffic CommStats::traffic(int world) const {
    CommTraffic t;
    for (std::size_t i = 0; i < kCollectiveCount; ++i)
        t.bytes[i] = per[i].trafficBytes(static_cast<Collective>(i), world);
    return t;
}

double CommStats::busbwGbps(int world) const {
    // Sum of each collective's bus bytes over the summed time.
    double busBytes = 0;
    for (std::size_t i = 0; i < kCollectiveCount; ++i) {
        const auto c = static_cast<Collective>(i);
        busBytes += per[i].busbwGbps(c, world) * 1e9 * per[i].ms * 1e-3;
    }
    const double t = totalMs();
    return t > 0 ? busBytes / (t * 1e-3) / 1e9 : 0;
}

CommHandle& CommHandle::operator=(CommHandle&& o) noexcept {
    if (this != &o) {
        if (m_state) {
            try {
                wait();
            } catch (...) {
            }
        }
        m_state = std::move(o.m_state);
    }
    return *this;
}

CommHandle::~CommHandle() {
    if (m_state) {
        try {
            wait();
        } catch (...) {
            // A failed collective already reported through wait() elsewhere or ends the job.
        }
    }
}

void CommHandle::wait() {
    if (!m_state)
        return;
    auto s = std::move(m_state);
    s->waitDone();
}

} // namespace zerolab
