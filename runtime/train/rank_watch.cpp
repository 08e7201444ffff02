// Rank 0's liveness thread: /proc for the other ranks' processes on this host, their
// collective beacons, the heartbeat, and the stall policy.
#include "runtime/train/rank_watch.h"

#include "runtime/train/stall_report.h"
#include "runtime/train/telemetry.h"
#include "runtime/train/trainer.h"
#include "storage/run_reader.h"
#include "storage/store_clock.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace zerolab {

namespace {

// The steps the default timeout's median looks at: the latest ones.
constexpr std::size_t kStepWindow = 101;
// A pause of the watch's own loop this long (or 10 periods) means rank 0 was not running.
constexpr double kOwnPauseS = 2;
// The next writer settles runs whose processes are gone after this silence, as
// zerolab-runs does (RunReader::markLostRuns).
constexpr double kLostAfterS = 30;

} // namespace

RankWatch::RankWatch(std::string db_path, std::int64_t run_id, std::vector<RankProcess> ranks,
                     std::string host, const CollectiveBeacon& own, WatchOptions options,
                     long long completed)
    : m_db(std::move(db_path)), m_run(run_id), m_ranks(std::move(ranks)), m_host(std::move(host)),
      m_own(own), m_options(options), m_lastStep(completed) {
    m_writer.emplace(RunStore::open(m_db));
    m_writer->attachRun(m_run);
    // Runs left running by jobs that were killed (SIGKILL, a lost host) are settled by
    // whoever comes next: the GUI, zerolab-runs, and this run as it starts.
    RunReader(RunStore::open(m_db)).markLostRuns(kLostAfterS);
    m_lastBeat = unixNow();
    for (const auto& r : m_ranks)
        if (r.rank != 0 && r.host == m_host)
            if (auto view = BeaconView::open(r.pid))
                m_beacons.emplace(r.rank, std::move(*view));
    m_thread = std::thread([this] { loop(); });
}

RankWatch::~RankWatch() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void StepTimeWindow::add(double ms) {
    std::lock_guard lock(m_mutex);
    if (m_ms.size() == kStepWindow)
        m_ms.erase(m_ms.begin());
    m_ms.push_back(ms);
}

std::vector<double> StepTimeWindow::snapshot() const {
    std::lock_guard lock(m_mutex);
    return m_ms;
}

void RankWatch::stepDone(long long step, double ms) {
    m_lastStep.store(step);
    m_stepMs.add(ms);
}

void RankWatch::loop() {
    std::int64_t lastNs = monotonicNs();
    while (!m_stop.load()) {
        try {
            if (checkDead())
                return;
            noticeOwnPause(lastNs);
            lastNs = monotonicNs();
            beat();
            checkStall();
            checkSignalled();
        } catch (const std::exception& e) {
            // The store is busy or gone: the training loop meets it too and says so.
            std::fprintf(stderr, "zerolab-train: rank 0's watch: %s\n", e.what());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(m_options.period_ms));
    }
}

void RankWatch::eventLine(EventLevel level, int rank, const std::string& message) {
    std::fprintf(stderr, "zerolab-train: %s\n", message.c_str());
    std::cout << jsonText(zerolab::eventLine(level, rank, message)) << '\n' << std::flush;
}

bool RankWatch::checkDead() {
    std::vector<const RankProcess*> dead;
    for (const auto& r : m_ranks)
        if (r.rank != 0 && r.host == m_host && !processAlive(r.pid))
            dead.push_back(&r);
    if (dead.empty())
        return false;
    std::ostringstream msg;
    for (const auto* r : dead)
        msg << (msg.tellp() > 0 ? "; " : "") << "rank " << r->rank << " (pid " << r->pid << " on "
            << r->host << ") died";
    msg << " while the run was training; mpirun ends the job (its message names the signal)";
    try {
        m_writer->addEvent(EventLevel::Error, dead.front()->rank, msg.str());
        m_writer->finish(RunStatus::Failed, msg.str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zerolab-train: could not record the failure: %s\n", e.what());
    }
    std::fprintf(stderr, "zerolab-train: %s\n", msg.str().c_str());
    std::cout << jsonText(endLine(RunStatus::Failed, m_lastStep.load(), msg.str())) << '\n'
              << std::flush;
    m_fired.store(true);
    return true;
}

void RankWatch::noticeOwnPause(std::int64_t lastNs) {
    const std::int64_t now = monotonicNs();
    const double gap = static_cast<double>(now - lastNs) * 1e-9;
    if (gap < std::max(kOwnPauseS, 10 * m_options.period_ms * 1e-3))
        return;
    // Rank 0 itself was stopped (SIGSTOP) or not scheduled: a collective it waited in
    // meanwhile says nothing about the others, so its waits count from now.
    m_awakeSinceNs = now;
    const std::string msg = "rank 0 itself did not run for " + secondsText(gap) +
                            " (stopped, or not scheduled); its collective waits count from now";
    m_writer->addEvent(EventLevel::Warn, 0, msg);
    eventLine(EventLevel::Warn, 0, msg);
}

void RankWatch::beat() {
    const double now = unixNow();
    if (now - m_lastBeat < m_options.heartbeat_s)
        return;
    m_lastBeat = now;
    m_writer->heartbeat();
}

void RankWatch::checkStall() {
    const BeaconReading me = m_own.read();
    const double waited =
        static_cast<double>(monotonicNs() - std::max(me.since_ns, m_awakeSinceNs)) * 1e-9;
    if (m_stalledIn != 0) {
        if (me.left >= m_stalledIn) {
            const std::string msg = "collective #" + std::to_string(m_stalledIn) +
                                    " completed after the stall; the run continues";
            m_stalledIn = 0;
            m_writer->markUnstalled();
            m_writer->addEvent(EventLevel::Info, -1, msg);
            eventLine(EventLevel::Info, -1, msg);
        } else if (g_stopRequested.load()) {
            endJob("the job was ended while stalled in collective #" + std::to_string(m_stalledIn) +
                   " (after " + secondsText(waited) + ")");
        }
        return;
    }
    if (!me.inside())
        return;
    const double timeout = collectiveTimeoutS(m_options.collective_timeout_s, m_stepMs.snapshot());
    if (waited < timeout)
        return;
    std::vector<RankSighting> others;
    for (const auto& r : m_ranks) {
        if (r.rank == 0)
            continue;
        RankSighting s{r, std::nullopt, false};
        if (const auto it = m_beacons.find(r.rank); it != m_beacons.end())
            s.beacon = it->second.read();
        if (r.host == m_host)
            s.stopped = processStopped(r.pid);
        others.push_back(std::move(s));
    }
    const StallReport report = describeStall(me, waited, timeout, others);
    m_writer->markStalled(report.message);
    m_writer->addEvent(EventLevel::Error, report.eventRank(), report.message);
    eventLine(EventLevel::Error, report.eventRank(), report.message);
    if (m_options.on_stall == OnStall::Kill)
        endJob(report.message + "; run.on_stall is kill: rank 0 ends the job");
    m_stalledIn = me.entered;
}

void RankWatch::checkSignalled() {
    if (m_signalRecorded || !g_stopRequested.load())
        return;
    m_signalRecorded = true;
    // No step number: the step in flight may still be stored after this, or not.
    m_writer->finish(RunStatus::Stopped,
                     "stopped by a signal; the ranks were ended before their stop was done "
                     "(mpirun kills its ranks 1 s after passing its own SIGINT or SIGTERM on "
                     "to them): every stored step is whole, no checkpoint of the stop");
}

void RankWatch::endJob(const std::string& message) {
    try {
        m_writer->addEvent(EventLevel::Error, -1, message);
        m_writer->finish(RunStatus::Failed, message);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zerolab-train: could not record the failure: %s\n", e.what());
    }
    std::fprintf(stderr, "zerolab-train: %s\n", message.c_str());
    std::cout << jsonText(endLine(RunStatus::Failed, m_lastStep.load(), message)) << '\n'
              << std::flush;
    if (m_options.abort_collectives)
        m_options.abort_collectives();
    std::fflush(nullptr);
    std::_Exit(1);
}

} // namespace zerolab
