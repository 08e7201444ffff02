// Where this rank sits on its host: how many ranks share the host and which of them
// this one is (ranks are numbered in rank order per host name). The GPU a rank takes is
// runtime/comm/gpu_choice.h's.
#pragma once

#include "runtime/comm/communicator.h"

namespace zerolab {

struct LocalPlacement {
    int local_rank = 0; // ranks below this one on the same host
    int local_size = 1; // ranks on this host
};

// Collective: every rank calls it (host names are gathered on rank 0, which sends each
// rank its placement).
LocalPlacement findLocalPlacement(Communicator& comm);

} // namespace zerolab
