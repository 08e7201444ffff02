// Every rank's poll of its NCCL async errors and its own collective's wait; see
// comm_watch.h.
#include "runtime/train/comm_watch.h"

#include "runtime/train/stall_report.h"
#include "runtime/train/telemetry.h"
#include "storage/run_writer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace zerolab {

WaitDecision decideCollectiveWait(const CollectiveWait& w) {
    WaitDecision d;
    const std::string me = "rank " + std::to_string(w.rank);
    const std::string aborts = "; " + me + " aborts its NCCL communicators and ends the job";
    if (!w.async_errors.empty()) {
        d.abort = true;
        d.reason = "NCCL reported an error on " + me +
                   (w.beacon.inside() ? " in collective #" + std::to_string(w.beacon.entered)
                                      : std::string(" between collectives")) +
                   ": ";
        for (std::size_t i = 0; i < w.async_errors.size(); ++i)
            d.reason += (i ? "; " : "") + w.async_errors[i];
        d.reason += aborts;
        return d;
    }
    if (!w.act_on_timeout || !w.beacon.inside() || w.waited_s < w.timeout_s ||
        w.on_stall != OnStall::Kill)
        return d;
    d.abort = true;
    d.stalled = true;
    d.reason = "stall: " + me + " has waited " + secondsText(w.waited_s) + " in collective #" +
               std::to_string(w.beacon.entered) + " (run.collective_timeout_s " +
               secondsText(w.timeout_s) + "); run.on_stall is kill" + aborts;
    return d;
}

CommWatch::CommWatch(Communicator& comm, int rank, const CollectiveBeacon& own,
                     WatchOptions options, CommWatchActions actions, long long completed)
    : m_comm(comm), m_rank(rank), m_own(own), m_options(options), m_actions(std::move(actions)),
      m_lastStep(completed) {
    if (m_options.period_ms > 0)
        m_thread = std::thread([this] { loop(); });
}

CommWatch::~CommWatch() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void CommWatch::stepDone(long long step, double ms) {
    m_lastStep.store(step);
    m_stepMs.add(ms);
}

WaitDecision CommWatch::check(std::int64_t now_ns) {
    CollectiveWait w;
    w.rank = m_rank;
    w.async_errors = m_comm.asyncErrors();
    w.beacon = m_own.read();
    w.waited_s = w.beacon.inside() ? static_cast<double>(now_ns - w.beacon.since_ns) * 1e-9 : 0;
    w.timeout_s = collectiveTimeoutS(m_options.collective_timeout_s, m_stepMs.snapshot());
    w.on_stall = m_options.on_stall;
    w.act_on_timeout = m_rank != 0;
    const WaitDecision d = decideCollectiveWait(w);
    if (!d.abort)
        return d;
    // The record first: an abort that hangs in a broken driver must not cost the evidence.
    m_actions.record(d, m_lastStep.load());
    m_comm.abortCollectives();
    m_actions.end();
    return d;
}

void CommWatch::loop() {
    while (!m_stop.load()) {
        try {
            check(monotonicNs());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "zerolab-train: rank %d's collective watch: %s\n", m_rank,
                         e.what());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(m_options.period_ms));
    }
}

CommWatchActions storeAndExitActions(std::string db_path, std::int64_t run_id, int rank) {
    CommWatchActions a;
    a.record = [db = std::move(db_path), run_id, rank](const WaitDecision& d, long long last) {
        // The launcher's line first: it is all there is when the store cannot be written.
        std::fprintf(stderr, "zerolab-train: %s\n", d.reason.c_str());
        std::fflush(stderr);
        try {
            RunWriter w(RunStore::open(db));
            w.observeRun(run_id);
            if (d.stalled)
                w.markStalled(d.reason);
            w.addEvent(EventLevel::Error, rank, d.reason);
            w.finish(RunStatus::Failed, d.reason);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "zerolab-train: rank %d could not record it in the store: %s\n",
                         rank, e.what());
        }
        if (rank == 0)
            std::cout << jsonText(endLine(RunStatus::Failed, last, d.reason)) << '\n' << std::flush;
    };
    a.end = [] {
        std::fflush(nullptr);
        std::_Exit(1);
    };
    return a;
}

} // namespace zerolab
