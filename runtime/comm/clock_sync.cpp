// Clock alignment by broadcast-and-gather rounds (clock_sync.h), on the steady clock the
// step timeline's spans are read from.
#include "runtime/comm/clock_sync.h"

#include <chrono>
#include <cstdio>
#include <limits>

namespace zerolab {

namespace {

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

ClockAlignment alignClocks(Communicator& comm, int rounds) {
    const int n = comm.size();
    const bool root = comm.rank() == 0;
    ClockAlignment a;
    a.rounds = rounds;
    if (root)
        a.offset_ns.assign(static_cast<std::size_t>(n), 0);
    std::vector<std::int64_t> readings(root ? n : 0);
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    comm.barrier();
    for (int k = 0; k < rounds; ++k) {
        std::int64_t ping = 0;
        const std::int64_t t0 = nowNs();
        comm.broadcastBytes(&ping, sizeof ping, 0);
        const std::int64_t mine = nowNs();
        comm.gatherBytes(&mine, sizeof mine, root ? readings.data() : nullptr);
        const std::int64_t t1 = nowNs();
        if (root && t1 - t0 < best) {
            best = t1 - t0;
            for (int r = 1; r < n; ++r)
                a.offset_ns[r] = readings[r] - (t0 + t1) / 2;
        }
    }
    if (root && n > 1)
        a.error_ns = (best + 1) / 2;
    return a;
}

std::string clockOffsetMessage(const ClockAlignment& a, int rank) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "clock of rank %d: %+.3f us from rank 0's (error bound +-%.3f us: half the "
                  "shortest of %d broadcast-and-gather round trips)",
                  rank, static_cast<double>(a.offset_ns.at(static_cast<std::size_t>(rank))) * 1e-3,
                  static_cast<double>(a.error_ns) * 1e-3, a.rounds);
    return buf;
}

} // namespace zerolab
