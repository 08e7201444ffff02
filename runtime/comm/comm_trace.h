// The step timeline's view of the collectives: a Communicator with a trace set
// (Communicator::setTrace) reports each timed collective's life to it: issued (handed to
// the communicator), ran (inside the library call) and waited for (the compute thread
// blocked on it). The trainer's TimelineRecorder (runtime/train/timeline_recorder.h)
// implements it; docs/metrics.md defines the times.
#pragma once

#include "storage/comm_traffic.h"

#include <chrono>

namespace zerolab {

class CommTrace {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~CommTrace() = default;
    // Compute thread, in issue order: a timed collective (one counted in CommStats) of
    // `bytes` (nccl-tests' size, the whole buffer) was handed to the communicator at `at`.
    // Returns its number in the step (seq), which ran() and waited() name.
    virtual int issued(Collective c, long long bytes, Clock::time_point at) = 0;
    // The thread that ran it (the MPI progress thread, or the compute thread for a
    // blocking call made while nothing else was in flight): the library call was entered
    // at `start` and returned at `end`.
    virtual void ran(int seq, Clock::time_point start, Clock::time_point end) = 0;
    // Compute thread: blocked on collective `seq` from `begin` to `end`.
    virtual void waited(int seq, Clock::time_point begin, Clock::time_point end) = 0;
    // Compute thread: the next collective issued moves gather unit `unit` (its parameters
    // or gradients); the engine says so just before issuing it.
    virtual void labelNext(int unit) = 0;
};

} // namespace zerolab
