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

namespace {

void addStats(CollectiveStats& a, const CollectiveStats& b) {
    a.ms += b.ms;
    a.bytes += b.bytes;
    a.calls += b.calls;
    a.traffic += b.traffic;
}

} // namespace

CommStats& CommStats::operator+=(const CommStats& o) {
    for (std::size_t i = 0; i < kCollectiveCount; ++i)
        addStats(per[i], o.per[i]);
    addStats(alltoall, o.alltoall);
    link += o.link;
    exposed_ms += o.exposed_ms;
    return *this;
}

void CommStats::count(std::optional<Collective> kind, double ms, long long bytes, double traffic,
                      const LinkTraffic& l) {
    CollectiveStats& st = kind ? (*this)[*kind] : alltoall;
    st.ms += ms;
    st.bytes += bytes;
    st.calls += 1;
    st.traffic += traffic;
    link += l;
}

double CommStats::totalMs() const {
    double t = alltoall.ms;
    for (const auto& s : per)
        t += s.ms;
    return t;
}

long long CommStats::totalBytes() const {
    long long b = alltoall.bytes;
    for (const auto& s : per)
        b += s.bytes;
    return b;
}

CommTraffic CommStats::traffic() const {
    CommTraffic t;
    for (std::size_t i = 0; i < kCollectiveCount; ++i)
        t.bytes[i] = per[i].traffic;
    t.alltoall = alltoall.traffic;
    t.link = link;
    return t;
}

void Communicator::setRanksPerHost(int) {
    throw CommError(
        "this communicator has no link classes (ZeRO++ needs the MPI or NCCL communicator)");
}

std::unique_ptr<Communicator> Communicator::split(CommGroup, int) {
    throw CommError("this communicator has no sub-communicators (ZeRO++ needs the MPI or NCCL "
                    "communicator)");
}

void Communicator::allToAll(const void*, void*, std::size_t, CommDType) {
    throw CommError(
        "this communicator has no all-to-all (ZeRO++ needs the MPI or NCCL communicator)");
}

CommHandle Communicator::startAllToAll(const void*, void*, std::size_t, CommDType) {
    throw CommError(
        "this communicator has no all-to-all (ZeRO++ needs the MPI or NCCL communicator)");
}

double CommStats::busbwGbps(int world) const {
    // Sum of each collective's bus bytes over the summed time.
    double busBytes = 0;
    for (std::size_t i = 0; i < kCollectiveCount; ++i) {
        const auto c = static_cast<Collective>(i);
        busBytes += per[i].busbwGbps(c, world) * 1e9 * per[i].ms * 1e-3;
    }
    busBytes += alltoall.traffic; // an all-to-all's bus bytes are what each rank sends
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
