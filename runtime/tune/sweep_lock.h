// One sweep, one driver (issue 29 §4): zerolab-sweep run and resume claim the sweep in the
// store (SweepStore::claimDriver) for as long as they drive it. A second driver is
// refused naming the first's pid and host; one left by a killed driver (its process gone
// on this host, or its heartbeat older than kDriverStaleAfterS on any host) is taken over.
#pragma once

#include "storage/sweep_store.h"

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace zerolab {

// A driver's heartbeat is refreshed this often while it runs (through the trial's poll).
inline constexpr double kDriverHeartbeatS = 5;
// A driver whose heartbeat is older than this is taken as gone, whatever its host.
inline constexpr double kDriverStaleAfterS = 60;

// This process as a driver: getpid() and the host name.
SweepDriver thisDriver();

// Whether the recorded driver is no more, seen from this host at `now` (unixNow).
bool driverGone(const SweepDriver& holder, double now);

class SweepDriverLock {
public:
    // Claims the sweep in the store at db_path (opened for the claim only). Throws
    // SweepError naming the holder's pid, host and heartbeat age when a live driver holds
    // it; says on `progress` when it takes over one that is gone.
    SweepDriverLock(const std::string& db_path, std::int64_t sweep_id, std::ostream* progress);
    ~SweepDriverLock();
    SweepDriverLock(const SweepDriverLock&) = delete;
    SweepDriverLock& operator=(const SweepDriverLock&) = delete;

    // Refreshes the heartbeat when kDriverHeartbeatS has passed since the last; cheap to
    // call every poll. The caller holds no connection to the store meanwhile.
    void heartbeat();

private:
    std::string m_db_path;
    std::int64_t m_sweep_id;
    SweepDriver m_me;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace zerolab
