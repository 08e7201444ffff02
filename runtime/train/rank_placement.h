// Where the ranks run: the event rank 0 records at the start of a run whose ranks span
// several hosts, naming each host and its ranks, so that the run's events say which host
// a rank lived on (a stall or a death later names the rank). On one host the run's own
// `host` says it all, and no event is added. And the warning of a host whose ranks want
// more threads than it has cores (oversubscribed: they take turns, and each step is slower).
#pragma once

#include "runtime/train/rank_watch.h"

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

// "4 ranks on 2 hosts: node-a has ranks 0, 1; node-b has ranks 2, 3", the hosts in the
// order of their lowest rank; nullopt when every rank runs on one host. `ranks`: every
// rank's process, in any order.
std::optional<std::string> placementMessage(const std::vector<RankProcess>& ranks);

// "oversubscribed: 4 ranks x 1 thread on box's 2 cores: ..." when the ranks on `host`
// times `threads_per_rank` exceed `cores` (that host's); nullopt when they fit.
std::optional<std::string> oversubscriptionMessage(const std::vector<RankProcess>& ranks,
                                                   const std::string& host, int threads_per_rank,
                                                   int cores);

} // namespace zerolab
