// Rank 1's watch over rank 0 (issue 29 §11). Rank 0 writes the store and watches the
// others (rank_watch.h), so when rank 0 itself is stopped or hung nothing reported: the
// run stayed `running`. Rank 1, waiting in a collective past run.collective_timeout_s,
// looks at rank 0: its process state where it shares rank 1's host, and its heartbeat in
// the store (refreshed by rank 0's watch thread while rank 0 runs) on any host. When rank
// 0 is stopped or silent, rank 1 records the stall itself (an event naming rank 0, status stalled)
// and prints it for the launcher; run.on_stall kill then ends the job from rank 1. When the
// collective completes after all, the run is running again.
#pragma once

#include "runtime/comm/collective_beacon.h"
#include "runtime/train/rank_watch.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace zerolab {

class PeerWatch {
public:
    // `own`: this rank's beacon (it must outlive the watch); `rank0`: rank 0's process and,
    // where it shares this host, its beacon (mapped while it was published). The store is
    // opened only to record a stall (a store rank 1 cannot open: the line only).
    PeerWatch(std::string db_path, std::int64_t run_id, int rank, RankProcess rank0,
              std::optional<BeaconView> rank0_beacon, const CollectiveBeacon& own,
              WatchOptions options);
    ~PeerWatch();
    PeerWatch(const PeerWatch&) = delete;
    PeerWatch& operator=(const PeerWatch&) = delete;

    // From the compute thread, as RankWatch::stepDone (the default timeout's median).
    void stepDone(double ms);

private:
    void loop();
    void check();
    // Why rank 0 has not arrived in `mine` (empty: it has, its own watch reports).
    std::string rank0Absence(const BeaconReading& mine, double timeout);
    void record(const std::string& message, bool stalled);

    std::string m_db;
    std::int64_t m_run;
    int m_rank;
    RankProcess m_rank0;
    std::optional<BeaconView> m_rank0Beacon;
    const CollectiveBeacon& m_own;
    WatchOptions m_options;
    StepTimeWindow m_stepMs;
    std::uint64_t m_reportedIn = 0; // the collective a recorded stall is in; 0: none
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace zerolab
