// Polling /proc for the other ranks' processes on this host.
#include "runtime/train/rank_watch.h"

#include "runtime/train/telemetry.h"
#include "storage/run_writer.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace zerolab {

bool processAlive(std::int64_t pid) {
    if (pid <= 0)
        return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return false;
    // The state follows the parenthesised command name: "pid (comm) S ...".
    const auto close = line.rfind(')');
    return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

RankWatch::RankWatch(std::string db_path, std::int64_t run_id, std::vector<RankProcess> ranks,
                     std::string host, int period_ms)
    : m_db(std::move(db_path)), m_run(run_id), m_ranks(std::move(ranks)), m_host(std::move(host)),
      m_period(period_ms) {
    m_thread = std::thread([this] { loop(); });
}

RankWatch::~RankWatch() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void RankWatch::loop() {
    while (!m_stop.load()) {
        std::vector<const RankProcess*> dead;
        for (const auto& r : m_ranks)
            if (r.rank != 0 && r.host == m_host && !processAlive(r.pid))
                dead.push_back(&r);
        if (!dead.empty()) {
            std::ostringstream msg;
            for (const auto* r : dead)
                msg << (msg.tellp() > 0 ? "; " : "") << "rank " << r->rank << " (pid " << r->pid
                    << " on " << r->host << ") died";
            msg << " while the run was training; mpirun ends the job (its message names the "
                   "signal)";
            try {
                RunWriter w(RunStore::open(m_db));
                w.attachRun(m_run);
                w.addEvent(EventLevel::Error, dead.front()->rank, msg.str());
                w.finish(RunStatus::Failed, msg.str());
            } catch (const std::exception& e) {
                std::fprintf(stderr, "zerolab-train: could not record the failure: %s\n", e.what());
            }
            std::fprintf(stderr, "zerolab-train: %s\n", msg.str().c_str());
            std::cout << jsonText(endLine(RunStatus::Failed, -1, msg.str())) << '\n' << std::flush;
            m_fired.store(true);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(m_period));
    }
}

} // namespace zerolab
