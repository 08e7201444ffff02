// Byte and count formatting shared by the planner's table, explain text and errata
// and the GUI, so that every number printed or drawn names a unit scaled to it
// (decimal: KB = 1e3 ... GB = 1e9; binary: KiB = 2^10 ... GiB = 2^30).
#pragma once

#include "runtime/planner/planner.h"
#include "storage/byte_scale.h"

#include <cstdio>
#include <string>

namespace zerolab {

// The unit a number of bytes reads best in (storage/byte_scale.h: the one scaling rule of
// every printed and drawn byte count; the GUI's units.h calls it through here).
inline ByteScale byteScaleFor(double maxBytes, ByteUnit family) {
    return byteScale(maxBytes, family == ByteUnit::GiB);
}

// "decimal units, 1 GB = 1e9 bytes" / "binary units, 1 GiB = 2^30 bytes", for headers
// (a Message: the Learn view shows it translated).
inline Message unitLegend(ByteUnit u) {
    return u == ByteUnit::GiB
               ? Message(ZEROLAB_TR("PlanExplain", "binary units, 1 GiB = 2^30 bytes"))
               : Message(ZEROLAB_TR("PlanExplain", "decimal units, 1 GB = 1e9 bytes"));
}

// A number at three significant digits: "31.4", "640", "2.05" (the GUI's labels).
inline std::string threeDigits(double v) {
    const double a = v < 0 ? -v : v;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", a >= 100 ? 0 : a >= 10 ? 1 : 2, v);
    return buf;
}

// About three significant digits in the unit that fits: "1.50 s", "412 ms", "19.7 us", "0 s",
// so that a small model's comm time never reads 0.000 s (the CLI's tables and the GUI).
inline std::string formatSeconds(double s) {
    if (s == 0)
        return "0 s";
    const double a = s < 0 ? -s : s;
    const char* unit = a >= 1 ? "s" : a >= 1e-3 ? "ms" : "us";
    const double v = a >= 1 ? s : a >= 1e-3 ? s * 1e3 : s * 1e6;
    return threeDigits(v) + " " + unit;
}

// "31.41 GB", "468.75 MB", "0 B": scaled to the number (byteScaleFor), two decimals
// (none for whole bytes), so that a nano model's shard never prints as "0.000 GB".
inline std::string formatBytes(double bytes, ByteUnit family) {
    return scaledBytes(bytes, family == ByteUnit::GiB);
}

// A parameter count as the papers write it: "7.5e9", or "124475904" below 1e9.
inline std::string formatPsi(double n) {
    char buf[64];
    if (n >= 1e13) // past 9999e9, %.4g would write an exponent of its own
        std::snprintf(buf, sizeof buf, "%.0fe9", n / 1e9);
    else if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.4ge9", n / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

} // namespace zerolab
