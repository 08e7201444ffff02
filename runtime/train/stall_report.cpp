// The stall message: rank 0's collective number, then each rank that has not arrived
// with its pid, host and where its own beacon stands.
#include "runtime/train/stall_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace zerolab {

namespace {

constexpr double kMinTimeoutS = 120;
constexpr double kMedianSteps = 10;

std::string who(const RankProcess& p) {
    return "rank " + std::to_string(p.rank) + " (pid " + std::to_string(p.pid) + " on " + p.host +
           ")";
}

} // namespace

std::string secondsText(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

int StallReport::eventRank() const {
    if (!missing.empty())
        return missing.front();
    return unseen.empty() ? -1 : unseen.front();
}

StallReport describeStall(const BeaconReading& rank0, double waited_s, double timeout_s,
                          const std::vector<RankSighting>& others) {
    StallReport r;
    std::ostringstream msg;
    msg << "stall: rank 0 has waited " << secondsText(waited_s) << " in collective #"
        << rank0.entered << " (run.collective_timeout_s " << secondsText(timeout_s) << ")";
    std::vector<std::string> notArrived, notSeen;
    for (const RankSighting& s : others) {
        if (!s.beacon) {
            r.unseen.push_back(s.proc.rank);
            notSeen.push_back(who(s.proc));
            continue;
        }
        const BeaconReading& b = *s.beacon;
        const bool behind = b.entered < rank0.entered;
        if (!behind && !s.stopped)
            continue;
        r.missing.push_back(s.proc.rank);
        std::string why = who(s.proc);
        if (s.stopped)
            why += ", its process stopped (SIGSTOP or a debugger),";
        why += behind
                   ? " at collective #" + std::to_string(b.entered) + (b.inside() ? "" : " (done)")
                   : " inside collective #" + std::to_string(b.entered);
        notArrived.push_back(why);
    }
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v)
            s += (s.empty() ? "" : "; ") + x;
        return s;
    };
    if (!notArrived.empty())
        msg << "; not arrived: " << join(notArrived);
    if (!notSeen.empty())
        msg << (notArrived.empty() ? "; no rank on rank 0's host is behind; not observable "
                                     "from there (another host): "
                                   : "; not observable from rank 0's host: ")
            << join(notSeen);
    if (notArrived.empty() && notSeen.empty())
        msg << "; every rank has entered it and none has left (a wedged device or transport)";
    r.message = msg.str();
    return r;
}

double collectiveTimeoutS(double configured, std::vector<double> step_ms) {
    if (configured > 0)
        return configured;
    if (step_ms.empty())
        return kMinTimeoutS;
    const auto mid = step_ms.begin() + static_cast<std::ptrdiff_t>(step_ms.size() / 2);
    std::nth_element(step_ms.begin(), mid, step_ms.end());
    return std::max(kMedianSteps * *mid * 1e-3, kMinTimeoutS);
}

} // namespace zerolab
