// Where this rank sits on its host: how many ranks share the host and which of them
// this one is (ranks are numbered in rank order per host name). Decides which GPU a
// rank takes and how many ranks share it.
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

// The GPU a rank takes when `devices` GPUs serve `placement.local_size` ranks (round
// robin), and how many ranks share that GPU.
struct GpuShare {
    int device = 0;
    int ranks_on_device = 1;
};
GpuShare gpuShareFor(const LocalPlacement& placement, int devices);

} // namespace zerolab
