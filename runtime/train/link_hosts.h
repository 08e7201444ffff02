// Link classes from the ranks' host names: which ranks share a host, for counting traffic
// within / across hosts and for ZeRO++'s groups, checked against what the config says
// (run.ranks_per_host, zero_hpz_partition_size; docs/config.md). Run once by zerolab-train
// before the engine is built, on every rank with the same names, so every rank comes to the
// same verdict.
#pragma once

#include "runtime/comm/communicator.h"
#include "runtime/config/config.h"

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

struct LinkHosts {
    // What run.ranks_per_host becomes (0: left as configured). Set where the names show
    // several hosts of equally many consecutive ranks and the config did not say.
    int ranks_per_host = 0;
    // Why the link classes are not the host names' (one line), if so.
    std::optional<std::string> note;
    // The run cannot go on as configured (one line naming the key, the value and the
    // hosts); nullopt when the names agree with the config.
    std::optional<std::string> error;
};

// hosts[r]: rank r's host name (a rank's gethostname; distinct names are distinct hosts).
// One name for all: the config's groups stand (emulated link classes). Several: they must
// come in blocks of equally many consecutive ranks where run.ranks_per_host is set or
// ZeRO++ (hpZ's groups, qgZ's hops) needs them; then run.ranks_per_host must equal the
// block, and each hpZ group of zero_hpz_partition_size ranks must lie on one host.
LinkHosts resolveLinkHosts(const TrainConfig& config, const std::vector<std::string>& hosts);

// Collective: every rank's host name (Communicator::host), in rank order, on every rank.
std::vector<std::string> rankHosts(Communicator& comm);

} // namespace zerolab
