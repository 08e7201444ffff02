// Grid and guided order; see sweep_strategy.h.
#include "runtime/tune/sweep_strategy.h"

#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_texts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace zerolab {

namespace {

constexpr const char* kSearch = kPhaseSearch.source;
constexpr const char* kBuckets = kPhaseBuckets.source;
constexpr const char* kRepeat = kPhaseRepeat.source;

std::string fmtTps(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

// The axes the first phase walks: for guided, all but the bucket axes, with the
// micro-batch axis last and its values ascending.
std::vector<SweepAxis> searchAxes(const SweepSpec& spec) {
    std::vector<SweepAxis> axes;
    std::optional<SweepAxis> micro;
    for (const SweepAxis& a : spec.axes) {
        if (spec.strategy == SweepStrategy::Guided && isBucketAxis(a.name))
            continue;
        if (spec.strategy == SweepStrategy::Guided && a.name == kMicroBatchAxis) {
            micro = a;
            std::stable_sort(micro->values.begin(), micro->values.end(),
                             [](const nlohmann::json& x, const nlohmann::json& y) {
                                 return x.is_number() && y.is_number() &&
                                        x.get<double>() < y.get<double>();
                             });
            continue;
        }
        axes.push_back(a);
    }
    if (micro)
        axes.push_back(*micro);
    return axes;
}

std::vector<SweepAxis> bucketAxes(const SweepSpec& spec) {
    std::vector<SweepAxis> axes;
    if (spec.strategy == SweepStrategy::Guided)
        for (const SweepAxis& a : spec.axes)
            if (isBucketAxis(a.name))
                axes.push_back(a);
    return axes;
}

nlohmann::json axesOf(const TrialRecord& t) {
    return nlohmann::json::parse(t.axes_json);
}

// Guided: marks the pending trials of each group past its stopping point as skipped.
void guidedSkips(const std::vector<TrialRecord>& trials, SweepStep& step) {
    struct Group {
        bool stopped = false;
        std::string why;
        double last_tps = kUnknown;
    };
    std::map<std::string, Group> groups;
    for (const TrialRecord& t : trials) {
        if (t.phase != kSearch)
            continue;
        nlohmann::json key = axesOf(t);
        const std::string micro =
            key.contains(kMicroBatchAxis) ? key[kMicroBatchAxis].dump() : std::string("?");
        key.erase(kMicroBatchAxis);
        Group& g = groups[key.dump()];
        if (t.status == TrialStatus::Skipped) {
            g.stopped = true;
            continue;
        }
        if (t.status == TrialStatus::Pending) {
            if (g.stopped) {
                TrialRecord s = t;
                s.status = TrialStatus::Skipped;
                s.reason = g.why;
                step.updates.push_back(s);
            }
            continue;
        }
        if (!trialRan(t.status) || g.stopped)
            continue;
        if (t.status != TrialStatus::Finished) {
            g.stopped = true;
            g.why = renderEnglish(
                Message(kReasonMicroBatchEnded, {micro, std::string(trialStatusName(t.status))}));
        } else if (std::isfinite(g.last_tps) && !(t.tokens_per_s > g.last_tps)) {
            g.stopped = true;
            g.why = renderEnglish(Message(kReasonThroughputFlat,
                                          {micro, fmtTps(t.tokens_per_s), fmtTps(g.last_tps)}));
        }
        g.last_tps = t.tokens_per_s;
    }
}

// A pending repeat of t (phase repeat).
TrialRecord repeatOf(const TrialRecord& t) {
    TrialRecord r;
    r.phase = kRepeat;
    r.repeat_of = t.idx;
    r.axes_json = t.axes_json;
    r.config_json = t.config_json;
    r.world = t.world;
    r.forecast_bytes = t.forecast_bytes;
    r.capacity_bytes = t.capacity_bytes;
    return r;
}

bool hasPhase(const std::vector<TrialRecord>& trials, const char* phase) {
    return std::any_of(trials.begin(), trials.end(),
                       [&](const TrialRecord& t) { return t.phase == phase; });
}

} // namespace

std::vector<TrialRecord> initialTrials(const SweepSpec& spec) {
    return *initialTrials(spec, [](std::size_t, std::size_t) { return true; });
}

std::optional<std::vector<TrialRecord>> initialTrials(const SweepSpec& spec,
                                                      const PlanningProgress& progress) {
    const std::vector<nlohmann::json> points = gridPoints(searchAxes(spec));
    std::vector<TrialRecord> out;
    out.reserve(points.size());
    for (const nlohmann::json& p : points) {
        out.push_back(planTrial(spec, p, kSearch));
        if (!progress(out.size(), points.size()))
            return std::nullopt;
    }
    return out;
}

std::optional<int> bestTrial(const std::vector<TrialRecord>& trials) {
    std::optional<int> best;
    for (const TrialRecord& t : trials)
        if (t.phase != kRepeat && t.status == TrialStatus::Finished &&
            std::isfinite(t.tokens_per_s) &&
            (!best || t.tokens_per_s > trials[static_cast<std::size_t>(*best)].tokens_per_s))
            best = t.idx;
    return best;
}

double TrialMeasurements::low() const {
    return medians.empty() ? kUnknown : *std::min_element(medians.begin(), medians.end());
}

double TrialMeasurements::high() const {
    return medians.empty() ? kUnknown : *std::max_element(medians.begin(), medians.end());
}

TrialMeasurements measurementsOf(const TrialRecord& trial, const std::vector<TrialRecord>& trials) {
    TrialMeasurements m;
    const auto add = [&](const TrialRecord& t) {
        if (t.status != TrialStatus::Finished || !std::isfinite(t.tokens_per_s))
            return;
        m.medians.push_back(t.tokens_per_s);
        if (std::isfinite(t.spread_tokens_per_s))
            m.spread = std::max(m.spread, t.spread_tokens_per_s);
    };
    add(trial);
    for (const TrialRecord& t : trials)
        if (t.repeat_of == trial.idx) {
            ++m.repeats;
            add(t);
        }
    if (!m.medians.empty())
        m.between = (m.high() - m.low()) / 2;
    return m;
}

SweepStep nextStep(const SweepSpec& spec, const std::vector<TrialRecord>& trials) {
    SweepStep step;
    if (spec.strategy == SweepStrategy::Guided)
        guidedSkips(trials, step);
    for (const TrialRecord& t : trials) {
        const bool skipped = std::any_of(step.updates.begin(), step.updates.end(),
                                         [&](const TrialRecord& u) { return u.idx == t.idx; });
        if (t.status == TrialStatus::Pending && !skipped) {
            step.next = t.idx;
            return step;
        }
    }
    const std::optional<int> best = bestTrial(trials);
    const std::vector<SweepAxis> buckets = bucketAxes(spec);
    if (!buckets.empty() && !hasPhase(trials, kBuckets) && best) {
        const TrialRecord& b = trials[static_cast<std::size_t>(*best)];
        for (const nlohmann::json& p : gridPoints(buckets)) {
            nlohmann::json point = axesOf(b);
            for (const auto& [k, v] : p.items())
                point[k] = v;
            TrialRecord t = planTrial(spec, point, kBuckets);
            if (t.config_json == b.config_json && t.status == TrialStatus::Pending) {
                t.status = TrialStatus::Skipped;
                t.reason = renderEnglish(Message(kReasonSameConfig, {std::to_string(b.idx)}));
            }
            step.additions.push_back(std::move(t));
        }
        return step;
    }
    if (!hasPhase(trials, kRepeat) && spec.repeat_best > 0) {
        std::vector<const TrialRecord*> ranked;
        for (const TrialRecord& t : trials)
            if (t.phase != kRepeat && t.status == TrialStatus::Finished)
                ranked.push_back(&t);
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto* x, const auto* y) {
            return x->tokens_per_s > y->tokens_per_s;
        });
        for (std::size_t i = 0; i < ranked.size() && i < static_cast<std::size_t>(spec.repeat_best);
             ++i)
            step.additions.push_back(repeatOf(*ranked[i]));
        return step;
    }
    // A repeated trial whose runs disagree beyond their spread is measured again, a
    // bounded number of times.
    for (const TrialRecord& t : trials) {
        if (t.phase == kRepeat || t.status != TrialStatus::Finished)
            continue;
        const TrialMeasurements m = measurementsOf(t, trials);
        if (m.repeats > 0 && m.repeats <= kMaxExtraRepeats && m.disagree())
            step.additions.push_back(repeatOf(t));
    }
    return step;
}

} // namespace zerolab
