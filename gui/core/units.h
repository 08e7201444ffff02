// Byte and duration formatting shared by every view. GB means 1e9 bytes (the
// planner's and the device vendors' convention), MB 1e6; axis labels say so.
#pragma once

#include <QString>

namespace zerolab {

struct DisplayUnit {
    double divisor; // bytes per unit
    QString name;   // "GB", "MB", "KB", "B"
};

// The largest decimal unit in which `maxBytes` reads as at least 1.
DisplayUnit byteUnitFor(double maxBytes);
// "12.3 GB", "640 MB": three significant digits.
QString formatBytes(double bytes);
// "1 h 02 min", "3 min 20 s", "4.2 s".
QString formatDuration(double seconds);
// "6.7B", "124M", "1.5K": a parameter or token count.
QString formatCount(double n);

} // namespace zerolab
