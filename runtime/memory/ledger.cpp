// Ledger bookkeeping and /proc-based RSS measurement.
#include "runtime/memory/ledger.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace zerolab {

void MemoryLedger::add(MemCategory c, long long bytes) {
    m_current[c] += bytes;
    if (m_current.total() > m_peak)
        m_peak = m_current.total();
}

void MemoryLedger::sub(MemCategory c, long long bytes) {
    m_current[c] -= bytes;
}

static long long procStatusKb(const char* key) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long long kb = 0;
    const std::size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, key, n) == 0) {
            kb = std::atoll(line + n);
            break;
        }
    }
    std::fclose(f);
    return kb;
}

long long MemoryLedger::processRss() {
    return procStatusKb("VmRSS:") * 1024;
}
long long MemoryLedger::processPeakRss() {
    return procStatusKb("VmHWM:") * 1024;
}

} // namespace zerolab
