// CSV writer for StepColumns; numbers in C locale with full precision.
#include "gui/core/csv_export.h"

#include <QSaveFile>
#include <QTextStream>

#include <cmath>

namespace zerolab {

bool writeMetricsCsv(const QString& path, const StepColumns& steps, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    QTextStream out(&file);
    for (int m = 0; m < kMetricCount; ++m)
        out << (m ? "," : "") << metricInfo(static_cast<Metric>(m)).key;
    out << '\n';
    for (int row = 0; row < steps.size(); ++row) {
        for (int m = 0; m < kMetricCount; ++m) {
            if (m)
                out << ',';
            const double v = steps.columns[m][row];
            if (!std::isnan(v))
                out << QString::number(v, 'g', 12);
        }
        out << '\n';
    }
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace zerolab
