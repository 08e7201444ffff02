// Rank 1's watch over rank 0: its beacon, its process and its heartbeat; see peer_watch.h.
#include "runtime/train/peer_watch.h"

#include "runtime/launch/process_state.h"
#include "runtime/train/stall_report.h"
#include "storage/run_reader.h"
#include "storage/store_clock.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace zerolab {

namespace {

// Rank 0's heartbeat this many intervals old (and at least the timeout) means it is not
// running.
constexpr double kSilentBeats = 3;

} // namespace

PeerWatch::PeerWatch(std::string db_path, std::int64_t run_id, int rank, RankProcess rank0,
                     std::optional<BeaconView> rank0_beacon, const CollectiveBeacon& own,
                     WatchOptions options)
    : m_db(std::move(db_path)), m_run(run_id), m_rank(rank), m_rank0(std::move(rank0)),
      m_rank0Beacon(std::move(rank0_beacon)), m_own(own), m_options(options) {
    m_thread = std::thread([this] { loop(); });
}

PeerWatch::~PeerWatch() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void PeerWatch::stepDone(double ms) {
    m_stepMs.add(ms);
}

void PeerWatch::loop() {
    while (!m_stop.load()) {
        try {
            check();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "zerolab-train: rank %d's watch over rank 0: %s\n", m_rank,
                         e.what());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(m_options.period_ms));
    }
}

std::string PeerWatch::rank0Absence(const BeaconReading& mine, double timeout) {
    const std::string who =
        "rank 0 (pid " + std::to_string(m_rank0.pid) + " on " + m_rank0.host + ")";
    // Rank 0 merely late (writing a checkpoint or the store while the others wait in the
    // next collective) is not a stall: only a stopped process or a silent heartbeat is.
    if (m_rank0Beacon && processStopped(m_rank0.pid)) {
        const BeaconReading r0 = m_rank0Beacon->read();
        return who + ", its process stopped (SIGSTOP or a debugger), " +
               (r0.entered < mine.entered ? "at collective #" + std::to_string(r0.entered) +
                                                (r0.inside() ? "" : " (done)")
                                          : "inside collective #" + std::to_string(r0.entered));
    }
    // Rank 0's watch refreshes its heartbeat every few seconds while rank 0 runs, whatever
    // its training loop does; a heartbeat older than that says rank 0 is not running.
    double beat = kUnknown;
    try {
        beat = RunReader(RunStore::open(m_db, OpenMode::ReadOnly)).run(m_run).heartbeat_at;
    } catch (const StoreError&) {
        return {}; // no store here to tell (rank 0's store is on its own host)
    }
    const double age = unixNow() - beat;
    if (std::isfinite(beat) && age < std::max(timeout, kSilentBeats * m_options.heartbeat_s))
        return {};
    return who + ", its heartbeat in the store " +
           (std::isfinite(beat) ? secondsText(age) + " old" : std::string("absent")) +
           (m_rank0Beacon ? std::string()
                          : " (another host: its process is not observable from rank " +
                                std::to_string(m_rank) + "'s)");
}

void PeerWatch::check() {
    const BeaconReading mine = m_own.read();
    if (m_reportedIn != 0) {
        if (mine.left >= m_reportedIn) {
            const std::string msg = "collective #" + std::to_string(m_reportedIn) +
                                    " completed after rank 0's stall; the run continues";
            m_reportedIn = 0;
            record(msg, false);
        }
        return;
    }
    if (!mine.inside())
        return;
    const double timeout = collectiveTimeoutS(m_options.collective_timeout_s, m_stepMs.snapshot());
    const double waited = static_cast<double>(monotonicNs() - mine.since_ns) * 1e-9;
    if (waited < timeout)
        return;
    const std::string absent = rank0Absence(mine, timeout);
    if (absent.empty())
        return;
    const std::string msg =
        "stall: rank " + std::to_string(m_rank) + " has waited " + secondsText(waited) +
        " in collective #" + std::to_string(mine.entered) + " (run.collective_timeout_s " +
        secondsText(timeout) + "); not arrived: " + absent + "; reported by rank " +
        std::to_string(m_rank) + " (rank 0 writes the store)";
    m_reportedIn = mine.entered;
    record(msg, true);
    if (m_options.on_stall == OnStall::Kill) {
        const std::string end =
            msg + "; run.on_stall is kill: rank " + std::to_string(m_rank) + " ends the job";
        try {
            RunWriter w(RunStore::open(m_db));
            w.observeRun(m_run);
            w.addEvent(EventLevel::Error, -1, end);
            w.finish(RunStatus::Failed, end);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "zerolab-train: could not record the failure: %s\n", e.what());
        }
        std::fprintf(stderr, "zerolab-train: %s\n", end.c_str());
        if (m_options.abort_collectives)
            m_options.abort_collectives();
        std::fflush(nullptr);
        std::_Exit(1);
    }
}

void PeerWatch::record(const std::string& message, bool stalled) {
    // The launcher's line first: it is all there is when the store cannot be written.
    std::fprintf(stderr, "zerolab-train: %s\n", message.c_str());
    std::fflush(stderr);
    try {
        RunWriter w(RunStore::open(m_db));
        w.observeRun(m_run);
        if (stalled) {
            w.markStalled(message);
            w.addEvent(EventLevel::Error, 0, message);
        } else {
            w.markUnstalled();
            w.addEvent(EventLevel::Info, -1, message);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zerolab-train: rank %d could not record it in the store: %s\n",
                     m_rank, e.what());
    }
}

} // namespace zerolab
