// emaSmoothSteps (ema_smooth.h).
#include "gui/core/ema_smooth.h"

#include <cmath>

namespace zerolab {

QVector<double> emaSmoothSteps(const QVector<double>& steps, const QVector<double>& y,
                               double alpha) {
    double interval = 0;
    for (qsizetype i = 1; i < steps.size(); ++i) {
        const double d = steps[i] - steps[i - 1];
        if (d > 0 && (interval == 0 || d < interval))
            interval = d;
    }
    QVector<double> out(y.size());
    double ema = 0, weight = 0;
    for (int i = 0; i < y.size(); ++i) {
        if (std::isnan(y[i])) {
            out[i] = weight > 0 ? ema / weight : y[i];
            continue;
        }
        const double a = i > 0 && interval > 0 && i < steps.size()
                             ? std::pow(alpha, (steps[i] - steps[i - 1]) / interval)
                             : alpha;
        ema = a * ema + (1 - a) * y[i];
        weight = a * weight + (1 - a);
        out[i] = ema / weight;
    }
    return out;
}

} // namespace zerolab
