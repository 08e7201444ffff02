// The one scaling rule of every printed and drawn byte count, below the planner so that
// zerolab-runs (storage only) prints what zerolab-plan, zerolab-sweep and the GUI print:
// decimal units by default (KB = 1e3, MB = 1e6, GB = 1e9), binary (KiB ... GiB) on request.
#pragma once

#include <cstdio>
#include <string>

namespace zerolab {

struct ByteScale {
    double divisor = 1; // bytes per unit
    const char* name = "B";
};

// The largest of B, KB, MB, GB (binary: B, KiB, MiB, GiB) in which |maxBytes| is at least 1;
// GB stays GB above a thousand, as the papers write "2460.94 GB".
inline ByteScale byteScale(double maxBytes, bool binary) {
    static constexpr const char* kDecimal[] = {"B", "KB", "MB", "GB"};
    static constexpr const char* kBinary[] = {"B", "KiB", "MiB", "GiB"};
    const double step = binary ? 1024.0 : 1000.0;
    const double a = maxBytes < 0 ? -maxBytes : maxBytes;
    ByteScale s{1.0, binary ? kBinary[0] : kDecimal[0]};
    for (int i = 1; i < 4 && a >= s.divisor * step; ++i)
        s = {s.divisor * step, binary ? kBinary[i] : kDecimal[i]};
    return s;
}

// "31.41 GB", "468.75 MB", "0 B": scaled to the number, two decimals (none for whole bytes).
inline std::string scaledBytes(double bytes, bool binary) {
    const ByteScale s = byteScale(bytes, binary);
    char buf[64];
    std::snprintf(buf, sizeof buf, s.divisor == 1 ? "%.0f %s" : "%.2f %s", bytes / s.divisor,
                  s.name);
    return buf;
}

} // namespace zerolab
