// The runtime's rule for run.threads 0 on the CPU, in one place: zerolab-train applies it
// per rank, and a sweep (runtime/tune) holds its value fixed across N.
#pragma once

namespace zerolab {

// The host's cores shared out among the ranks on it (at least 1).
int autoThreadsPerRank(int ranks_on_host);

} // namespace zerolab
