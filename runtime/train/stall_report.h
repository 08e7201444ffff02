// What rank 0 says when its collective has waited past run.collective_timeout_s: which
// ranks have not arrived, from their collective beacons (runtime/comm/collective_beacon.h)
// and their process states, and the collective timeout itself (its default from the
// median step time). Pure functions: rank_watch.cpp gathers the inputs.
#pragma once

#include "runtime/comm/collective_beacon.h"
#include "runtime/train/rank_watch.h"

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

// One other rank as rank 0 sees it at the stall.
struct RankSighting {
    RankProcess proc;
    std::optional<BeaconReading> beacon; // none: on another host, or no shared memory
    bool stopped = false;                // /proc says stopped or traced (SIGSTOP, a debugger)
};

struct StallReport {
    // The ranks that have not arrived: behind rank 0's collective, or stopped inside it.
    std::vector<int> missing;
    // Ranks rank 0 cannot see (another host): suspects when nothing local explains it.
    std::vector<int> unseen;
    std::string message;
    // The rank the event names: the first missing one, else the first unseen, else -1.
    int eventRank() const;
};

// rank0: rank 0's own beacon, inside the collective that waited `waited_s` seconds.
StallReport describeStall(const BeaconReading& rank0, double waited_s, double timeout_s,
                          const std::vector<RankSighting>& others);

// "2.1 s": a wait or a timeout as every liveness message writes it.
std::string secondsText(double s);

// The timeout in seconds: `configured` when > 0, else max(10 x the median of
// `step_ms`, 120 s).
double collectiveTimeoutS(double configured, std::vector<double> step_ms);

} // namespace zerolab
