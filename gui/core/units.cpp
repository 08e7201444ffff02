// Formatting of bytes, durations and counts for labels, tooltips and tables.
#include "gui/core/units.h"

#include "runtime/planner/planner_units.h"

#include <QCoreApplication>

#include <cmath>

namespace zerolab {

DisplayUnit byteUnitFor(double maxBytes) {
    const ByteScale s = byteScaleFor(maxBytes, ByteUnit::GB);
    return {s.divisor, QString::fromLatin1(s.name)};
}

QString formatBytes(double bytes) {
    const ByteScale s = byteScaleFor(bytes, ByteUnit::GB);
    const QString value = s.divisor == 1 ? QString::number(bytes, 'f', 0)
                                         : QString::fromStdString(threeDigits(bytes / s.divisor));
    return value + QLatin1Char(' ') + QString::fromLatin1(s.name);
}

QString formatDuration(double seconds) {
    if (!(seconds >= 0))
        return QStringLiteral("–");
    if (seconds < 60)
        return QCoreApplication::translate("Units", "%1 s")
            .arg(QString::number(seconds, 'f', seconds < 10 ? 1 : 0));
    const long long s = std::llround(seconds);
    if (s < 3600)
        return QCoreApplication::translate("Units", "%1 min %2 s")
            .arg(s / 60)
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QCoreApplication::translate("Units", "%1 h %2 min")
        .arg(s / 3600)
        .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString formatCount(double n) {
    const double a = std::fabs(n);
    if (a >= 1e9)
        return QString::fromStdString(threeDigits(n / 1e9)) + QLatin1Char('B');
    if (a >= 1e6)
        return QString::fromStdString(threeDigits(n / 1e6)) + QLatin1Char('M');
    if (a >= 1e3)
        return QString::fromStdString(threeDigits(n / 1e3)) + QLatin1Char('K');
    return QString::number(n, 'g', 4);
}

} // namespace zerolab
