// Rank 0's watch over the run's liveness, on a thread of its own with its own store
// connection, so that nothing it does waits for the training loop:
// - a dead rank: when a rank dies (SIGKILL, OOM killer, a crash), mpirun tears the job
//   down and rank 0, blocked in a collective, never gets to record why. The watch notices
//   the dead process first and marks the run failed, naming the rank, its pid and host;
// - the heartbeat: refreshed every few seconds whatever run.log_every is, so that a live
//   run is never marked lost (RunReader::markLostRuns, which the watch itself runs once as
//   it starts: the next writer settles runs whose processes are gone);
// - a stall: rank 0's collective beacon inside one collective for longer than
//   run.collective_timeout_s. The run is marked stalled with an event naming the ranks
//   that have not arrived (stall_report.h); then run.on_stall decides: kill ends the job
//   (failed), flag waits (running again if the collective completes, failed if the job
//   is ended meanwhile);
// - a stop signal: rank 0's stop after the current step may not get to the store (mpirun
//   kills its ranks 1 s after passing its own SIGINT or SIGTERM on to them), so the watch
//   records the run stopped as soon as the signal arrives; the stop's own end replaces it.
#pragma once

#include "runtime/comm/collective_beacon.h"
#include "runtime/config/config.h"
#include "runtime/launch/process_state.h"
#include "storage/run_writer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace zerolab {

struct RankProcess {
    int rank = 0;
    std::int64_t pid = 0;
    std::string host;
};

struct WatchOptions {
    double collective_timeout_s = 0; // 0: max(10 x the median step time, 120 s)
    OnStall on_stall = OnStall::Kill;
    int period_ms = 200;
    double heartbeat_s = 2;
    // Called, when set, by a watch that ends the job, after recording why and before the
    // process ends: aborts the rank's device-side collectives (Communicator::
    // abortCollectives), so that its NCCL peers fail rather than wait (comm_watch.h).
    std::function<void()> abort_collectives;
};

// The latest steps' times (a bounded window) for the default timeout's median: added from
// the compute thread, read from a watch's thread.
class StepTimeWindow {
public:
    void add(double ms);
    std::vector<double> snapshot() const;

private:
    mutable std::mutex m_mutex;
    std::vector<double> m_ms;
};

class RankWatch {
public:
    // Watches run `run_id` of the store at `db_path` (opened here, used by the watch's
    // thread only). `ranks`: every rank's process; those on `host` are checked for death
    // and read through their beacons, which must still be published (CollectiveBeacon::
    // unpublish after this returns on every rank). `own`: rank 0's beacon, which must
    // outlive the watch. `completed`: the last step already done (a resume's checkpoint).
    // Throws StoreError when the store cannot be opened.
    RankWatch(std::string db_path, std::int64_t run_id, std::vector<RankProcess> ranks,
              std::string host, const CollectiveBeacon& own, WatchOptions options,
              long long completed);
    ~RankWatch();
    RankWatch(const RankWatch&) = delete;
    RankWatch& operator=(const RankWatch&) = delete;

    // From the compute thread: `step` completed in `ms` (the default timeout's median,
    // and the steps an `end` line reports if the watch ends the run).
    void stepDone(long long step, double ms);

    // True once a death has been recorded.
    bool fired() const { return m_fired.load(); }

private:
    void loop();
    // A dead local rank: records it and returns true (the watch ends).
    bool checkDead();
    // A pause of this thread since lastNs (rank 0 stopped): waits count from now.
    void noticeOwnPause(std::int64_t lastNs);
    void beat();
    void checkStall();
    // Once a stop signal reached rank 0: the run recorded stopped, before anything is
    // written to stdout (mpirun no longer reads it once it was signalled itself).
    void checkSignalled();
    // Records the run failed with `message`, prints the `end` line and ends this process
    // (exit 1); mpirun then ends the other ranks.
    [[noreturn]] void endJob(const std::string& message);
    void eventLine(EventLevel level, int rank, const std::string& message);

    std::string m_db;
    std::int64_t m_run = -1;
    std::vector<RankProcess> m_ranks;
    std::string m_host;
    const CollectiveBeacon& m_own;
    WatchOptions m_options;
    std::optional<RunWriter> m_writer;
    std::map<int, BeaconView> m_beacons; // the other ranks on this host

    StepTimeWindow m_stepMs;
    std::atomic<long long> m_lastStep{0};

    std::uint64_t m_stalledIn = 0;   // the collective a recorded stall is in; 0: none
    std::int64_t m_awakeSinceNs = 0; // monotonicNs after rank 0's own last pause
    double m_lastBeat = 0;
    bool m_signalRecorded = false;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_fired{false};
    std::thread m_thread;
};

} // namespace zerolab
