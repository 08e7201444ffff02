// Byte and count formatting shared by the planner's table, explain text and errata,
// so that every number the planner prints names its unit (GB = 1e9, GiB = 2^30).
#pragma once

#include "runtime/planner.h"

#include <cstdio>
#include <string>

namespace zerolab {

inline double unitBytes(ByteUnit u) {
    return u == ByteUnit::GiB ? 1073741824.0 : 1e9;
}

inline std::string_view unitName(ByteUnit u) {
    return u == ByteUnit::GiB ? "GiB" : "GB";
}

// "GB = 1e9 bytes" / "GiB = 2^30 bytes", for table headers.
inline std::string unitLegend(ByteUnit u) {
    return u == ByteUnit::GiB ? "GiB = 2^30 bytes" : "GB = 1e9 bytes";
}

// "31.41 GB": two decimals, or three below 1 so that small shards stay readable.
inline std::string formatBytes(double bytes, ByteUnit u) {
    const double v = bytes / unitBytes(u);
    char buf[64];
    std::snprintf(buf, sizeof buf, v < 1 && v > -1 ? "%.3f %s" : "%.2f %s", v,
                  std::string(unitName(u)).c_str());
    return buf;
}

// A parameter count as the papers write it: "7.5e9", or "124475904" below 1e9.
inline std::string formatCount(double n) {
    char buf[64];
    if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.4ge9", n / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

} // namespace zerolab
