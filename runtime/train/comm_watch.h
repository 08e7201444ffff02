// Every rank's watch over its own device-side collectives (NCCL), on a thread of its
// own. NCCL reports a failure (a peer gone, a network error) asynchronously: the
// collective's kernel never finishes, and a rank blocked on it waits forever; rank 0's
// watch (rank_watch.h) only saw rank 0. So every rank polls its communicators' async
// errors, and its own collective beacon against run.collective_timeout_s; on an error, or
// past the timeout under run.on_stall kill, it records why (the run stalled and failed in
// the store, as a stall does), aborts its communicators (ncclCommAbort: no thread of it
// stays blocked, and its peers' collectives fail rather than wait, so their watches end
// them too) and ends the process with exit code 1 (a failed rank); mpirun then ends the
// job. What to do is decided by a pure function, decideCollectiveWait.
#pragma once

#include "runtime/comm/collective_beacon.h"
#include "runtime/comm/communicator.h"
#include "runtime/train/rank_watch.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace zerolab {

// What a rank's watch sees at one look.
struct CollectiveWait {
    int rank = 0;
    std::vector<std::string> async_errors; // Communicator::asyncErrors()
    BeaconReading beacon;                  // this rank's own
    double waited_s = 0;                   // in the collective it is inside; 0 when outside
    double timeout_s = 0;                  // collectiveTimeoutS
    OnStall on_stall = OnStall::Kill;
    // False on rank 0, whose RankWatch acts on the timeout itself, with the report naming
    // the ranks that have not arrived (and aborts the communicators there).
    bool act_on_timeout = true;
};

struct WaitDecision {
    bool abort = false;   // abort the communicators and end the process
    bool stalled = false; // the cause is the timeout (the run is marked stalled first)
    std::string reason;   // the event's and the end line's message; empty when !abort
};

// An async error aborts whatever run.on_stall says: the communicator is broken and
// nothing it runs can complete. A collective past the timeout aborts under kill; under
// flag the wait goes on (rank 0's watch flags the stall; the run continues if it completes).
WaitDecision decideCollectiveWait(const CollectiveWait& w);

// What the watch does once it decided to abort; the trainer's default writes the store
// and exits (the tests record instead).
struct CommWatchActions {
    // Before the abort: the line on stderr, the run stalled (when `d.stalled`) and failed
    // in the store, and rank 0's `end` line. `last_step`: the last step completed.
    std::function<void(const WaitDecision& d, long long last_step)> record;
    // After the abort: ends the process (exit code 1).
    std::function<void()> end;
};

class CommWatch {
public:
    // `comm` (abortable()) and `own` (this rank's beacon) must outlive the watch.
    // period_ms 0: no thread (the tests call check()).
    CommWatch(Communicator& comm, int rank, const CollectiveBeacon& own, WatchOptions options,
              CommWatchActions actions, long long completed);
    ~CommWatch();
    CommWatch(const CommWatch&) = delete;
    CommWatch& operator=(const CommWatch&) = delete;

    // From the compute thread: `step` completed in `ms` (the default timeout's median).
    void stepDone(long long step, double ms);

    // One look at `now_ns` (CLOCK_MONOTONIC, monotonicNs()): when the decision is to
    // abort, records, aborts the communicators and ends (actions.end). Returns the decision.
    WaitDecision check(std::int64_t now_ns);

private:
    void loop();

    Communicator& m_comm;
    int m_rank;
    const CollectiveBeacon& m_own;
    WatchOptions m_options;
    CommWatchActions m_actions;
    StepTimeWindow m_stepMs;
    std::atomic<long long> m_lastStep;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

// The trainer's actions: `record` writes the store at `db_path` (RunWriter::observeRun of
// `run_id`: stalled, an error event, failed) and, on rank 0, prints the `end` line on
// stdout; `end` flushes and _Exit(1)s. A store that cannot be written: stderr only.
CommWatchActions storeAndExitActions(std::string db_path, std::int64_t run_id, int rank);

} // namespace zerolab
