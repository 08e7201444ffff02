// The load a calibration ran under (calibrate_load.h).
#include "runtime/train/calibrate_load.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace zerolab {

namespace {

double rusageSeconds(int who) {
    rusage u{};
    if (getrusage(who, &u) != 0)
        return 0;
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// The first line of /proc/stat: "cpu  user nice system idle iowait irq softirq steal ...",
// in clock ticks summed over the cores. Busy is everything but idle and iowait.
double machineBusySeconds() {
    std::ifstream in("/proc/stat");
    std::string label;
    if (!(in >> label) || label != "cpu")
        return -1;
    double v[8] = {};
    for (double& x : v)
        if (!(in >> x))
            return -1;
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    if (!(ticks > 0))
        return -1;
    return (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / ticks;
}

} // namespace

CpuSample sampleCpu() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return {machineBusySeconds(), rusageSeconds(RUSAGE_SELF) + rusageSeconds(RUSAGE_CHILDREN),
            std::chrono::duration<double>(now).count()};
}

LoadVerdict judgeLoad(const CpuSample& before, const CpuSample& after,
                      const std::vector<double>& round_seconds) {
    LoadVerdict v;
    const double wall = after.wall_s - before.wall_s;
    if (before.machine_busy_s >= 0 && after.machine_busy_s >= 0 && wall > 0) {
        const double others =
            (after.machine_busy_s - before.machine_busy_s) - (after.own_s - before.own_s);
        // Tick rounding can make a quiet machine's share a little negative.
        v.other_cores = std::max(0.0, others / wall);
    }
    if (round_seconds.size() >= 2) {
        std::vector<double> t = round_seconds;
        std::sort(t.begin(), t.end());
        const double median =
            t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
        if (median > 0)
            v.round_spread = (t.back() - t.front()) / median;
    }
    const bool busy = v.other_cores > kMaxOtherCores;
    const bool spread = v.round_spread > kMaxRoundSpread;
    v.loaded = busy || spread;
    char line[400];
    const std::string cores = v.other_cores < 0 ? std::string("unknown (no /proc/stat)") : [&] {
        char b[64];
        std::snprintf(b, sizeof b, "%.2f cores", v.other_cores);
        return std::string(b);
    }();
    const std::string rounds =
        v.round_spread < 0 ? std::string("unknown (fewer than 2 rounds)") : [&] {
            char b[64];
            std::snprintf(b, sizeof b, "%.1f%%", v.round_spread * 100);
            return std::string(b);
        }();
    std::snprintf(line, sizeof line,
                  "load: other processes used %s on average while calibrating (bound %.2f), "
                  "the reference pass spread %s between rounds (bound %.0f%%): %s",
                  cores.c_str(), kMaxOtherCores, rounds.c_str(), kMaxRoundSpread * 100,
                  v.loaded ? (busy && spread ? "the machine was busy and the rounds disagree"
                              : busy         ? "the machine was busy"
                                             : "the rounds disagree")
                           : "quiet");
    v.text = line;
    return v;
}

} // namespace zerolab
