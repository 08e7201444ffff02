// Aligning the ranks' clocks for the step timeline: at start-up, rounds of a broadcast
// from rank 0 and a gather of every rank's receive time back to it give each rank's
// steady clock's offset to rank 0's, with an error bound (docs/metrics.md, Step timeline).
#pragma once

#include "runtime/comm/communicator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

inline constexpr int kClockAlignRounds = 32;

struct ClockAlignment {
    // On rank 0, per rank: that rank's steady clock minus rank 0's, in nanoseconds (rank 0's
    // is 0); empty on the other ranks.
    std::vector<std::int64_t> offset_ns;
    // On rank 0: the bound on every offset's error, half the shortest round trip (ns).
    std::int64_t error_ns = 0;
    int rounds = 0;
};

// Collective (every rank calls it): a barrier, then `rounds` rounds. In each, rank 0 reads
// its clock (t0) and broadcasts; every rank reads its clock (t_r) when the broadcast
// arrives and the readings are gathered to rank 0, which reads its clock again (t1).
// t_r was read between t0 and t1 (it follows the broadcast, the gather waits for it), so
// offset_r = t_r - (t0 + t1) / 2 is off by at most (t1 - t0) / 2; the round with the
// shortest t1 - t0 is kept. Uses the communicator's untimed helpers only.
ClockAlignment alignClocks(Communicator& comm, int rounds = kClockAlignRounds);

// "clock of rank R: +X us from rank 0's (error bound +-E us, ...)", for the run's events.
std::string clockOffsetMessage(const ClockAlignment& a, int rank);

} // namespace zerolab
