// Merging a refined range into the overview, and the visible x range as steps. Both
// rely on every x column being ascending with the step (StepColumns' contract).
#include "gui/core/step_detail.h"

#include <algorithm>

namespace zerolab {

StepColumns mergeDetail(const StepColumns& overview, const StepColumns& detail,
                        std::int64_t firstStep, std::int64_t lastStep) {
    const QVector<double>& steps = overview[Metric::Step];
    // Spans of whole blocks may reach a little past the asked range: the detail's own
    // steps bound what it replaces, so the result stays ascending.
    const QVector<double>& own = detail[Metric::Step];
    const double from =
        own.isEmpty() ? double(firstStep) : std::min(double(firstStep), own.front());
    const double to = own.isEmpty() ? double(lastStep) : std::max(double(lastStep), own.back());
    const auto before = std::lower_bound(steps.begin(), steps.end(), from);
    const auto after = std::upper_bound(steps.begin(), steps.end(), to);
    const qsizetype head = before - steps.begin();
    const qsizetype tail = after - steps.begin();
    StepColumns out;
    for (int c = 0; c < kMetricCount; ++c) {
        const QVector<double>& o = overview.columns[c];
        QVector<double>& col = out.columns[c];
        col.reserve(head + detail.columns[c].size() + (o.size() - tail));
        col += o.mid(0, head);
        col += detail.columns[c];
        col += o.mid(tail);
    }
    return out;
}

std::optional<std::pair<std::int64_t, std::int64_t>>
visibleSteps(const StepColumns& overview, Metric x, double lower, double upper) {
    const QVector<double>& xs = overview[x];
    const QVector<double>& steps = overview[Metric::Step];
    if (xs.size() < 2)
        return std::nullopt;
    const qsizetype lo = std::lower_bound(xs.begin(), xs.end(), lower) - xs.begin();
    const qsizetype hi = std::upper_bound(xs.begin(), xs.end(), upper) - xs.begin();
    const qsizetype first = std::max<qsizetype>(0, lo - 1);
    const qsizetype last = std::min<qsizetype>(xs.size() - 1, hi);
    if (first == 0 && last == xs.size() - 1)
        return std::nullopt;
    if (last < first)
        return std::nullopt;
    return std::make_pair(std::int64_t(steps[first]), std::int64_t(steps[last]));
}

} // namespace zerolab
