// SweepDriverLock: the claim, its heartbeat and its release; see sweep_lock.h.
#include "runtime/tune/sweep_lock.h"

#include "runtime/launch/process_state.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/store_clock.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace zerolab {

namespace {

std::string ageText(double heartbeat_at, double now) {
    if (!std::isfinite(heartbeat_at))
        return "no heartbeat";
    char buf[48];
    std::snprintf(buf, sizeof buf, "heartbeat %.0f s ago", std::max(0.0, now - heartbeat_at));
    return buf;
}

} // namespace

SweepDriver thisDriver() {
    char host[256] = "";
    if (::gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    return {static_cast<std::int64_t>(::getpid()), host, kUnknown};
}

bool driverGone(const SweepDriver& holder, double now) {
    if (!std::isfinite(holder.heartbeat_at) || now - holder.heartbeat_at > kDriverStaleAfterS)
        return true;
    return holder.host == thisDriver().host && !processAlive(holder.pid);
}

SweepDriverLock::SweepDriverLock(const std::string& db_path, std::int64_t sweep_id,
                                 std::ostream* progress)
    : m_db_path(db_path), m_sweep_id(sweep_id), m_me(thisDriver()),
      m_last(std::chrono::steady_clock::now()) {
    const double now = unixNow();
    const DriverClaim claim = SweepStore(RunStore::open(db_path))
                                  .claimDriver(sweep_id, m_me, [&](const SweepDriver& holder) {
                                      return driverGone(holder, now);
                                  });
    const std::string holder = "pid " + std::to_string(claim.holder.pid) + " on " +
                               (claim.holder.host.empty() ? "?" : claim.holder.host) + " (" +
                               ageText(claim.holder.heartbeat_at, now) + ")";
    if (!claim.claimed)
        throw SweepError(db_path + ": sweep " + std::to_string(sweep_id) +
                         " is being driven by zerolab-sweep " + holder +
                         "; one driver per sweep: wait for it to end or stop it");
    const bool mine = claim.holder.pid == m_me.pid && claim.holder.host == m_me.host;
    if (claim.holder.pid >= 0 && !mine && progress)
        *progress << "sweep " << sweep_id << ": its driver " << holder
                  << " is gone; this one takes over\n";
}

SweepDriverLock::~SweepDriverLock() {
    try {
        SweepStore(RunStore::open(m_db_path)).releaseDriver(m_sweep_id, m_me);
    } catch (const std::exception&) {
        // The store is gone or failing: the claim is taken over once its heartbeat is stale.
    }
}

void SweepDriverLock::heartbeat() {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_last).count() < kDriverHeartbeatS)
        return;
    m_last = now;
    try {
        SweepStore(RunStore::open(m_db_path)).refreshDriver(m_sweep_id, m_me);
    } catch (const StoreError&) {
        // A busy or failing store: tried again at the next interval; the sweep's own
        // writes report a store that stays failed.
    }
}

} // namespace zerolab
