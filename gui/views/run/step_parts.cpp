// Medians of the measured parts and sums of the forecast's spans; see step_parts.h.
#include "gui/views/run/step_parts.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace zerolab {

namespace {

double median(std::vector<double> xs) {
    if (xs.empty())
        return kUnknown;
    const auto mid = xs.begin() + std::ptrdiff_t(xs.size() / 2);
    std::nth_element(xs.begin(), mid, xs.end());
    if (xs.size() % 2 == 1)
        return *mid;
    return (*mid + *std::max_element(xs.begin(), mid)) / 2;
}

} // namespace

StepParts measuredParts(const StepColumns& steps, double fromStep, double toStep) {
    constexpr Metric kColumns[kStepPartCount] = {Metric::FwdMs, Metric::BwdMs, Metric::ExposedMs,
                                                 Metric::OptimMs};
    StepParts parts;
    std::array<std::vector<double>, kStepPartCount> values;
    const QVector<double>& step = steps[Metric::Step];
    for (int i = 0; i < steps.size(); ++i) {
        if (step[i] < fromStep || step[i] >= toStep)
            continue;
        ++parts.steps;
        for (int p = 0; p < kStepPartCount; ++p)
            if (const double v = steps[kColumns[p]][i]; std::isfinite(v))
                values[std::size_t(p)].push_back(v);
    }
    for (int p = 0; p < kStepPartCount; ++p)
        parts.ms[std::size_t(p)] = median(values[std::size_t(p)]);
    return parts;
}

StepParts forecastParts(const StepTimeForecast& forecast) {
    StepParts parts;
    double drawn = 0; // compute on rank 0's drawn lane
    for (const TimelineSpan& s : forecast.timeline.spans) {
        if (s.rank != 0)
            continue;
        const double ms = (s.end_us - s.start_us) / 1000;
        std::optional<StepPart> part;
        switch (s.kind) {
        case SpanKind::Forward:
            part = StepPart::Forward;
            break;
        case SpanKind::Backward:
        case SpanKind::Recompute:
            part = StepPart::Backward;
            break;
        case SpanKind::Optimizer:
            part = StepPart::Optimizer;
            break;
        default: // waits are taken whole below; collectives in flight are not a part
            break;
        }
        if (part) {
            parts.ms[std::size_t(*part)] += ms;
            drawn += ms;
        }
    }
    // The lane draws the first kDrawnMicroSteps micro-steps: the compute parts in its
    // proportions, to the forecast's whole compute.
    const double scale = drawn > 0 ? forecast.compute_s * 1e3 / drawn : 1.0;
    for (const StepPart p : {StepPart::Forward, StepPart::Backward, StepPart::Optimizer})
        parts.ms[std::size_t(p)] *= scale;
    parts.ms[std::size_t(StepPart::Exposed)] = forecast.comm_exposed_s * 1e3;
    return parts;
}

} // namespace zerolab
