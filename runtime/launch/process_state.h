// A process of this host by pid, as /proc and kill(pid, 0) see it: alive (not a zombie),
// stopped. Used by rank 0's watch over the other ranks and by the sweep's driver lock.
#pragma once

#include <cstdint>

namespace zerolab {

// Alive and not a zombie (a dead child that its parent has not reaped yet).
bool processAlive(std::int64_t pid);
// Stopped by a signal (SIGSTOP, SIGTSTP) or by a tracer.
bool processStopped(std::int64_t pid);

} // namespace zerolab
