// Table, verdict and JSON of a sweep; see sweep_report.h.
#include "runtime/tune/sweep_report.h"

#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_strategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace zerolab {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string mib(std::int64_t bytes) {
    return bytes < 0 ? "-" : fmt("%.1f", static_cast<double>(bytes) / (1 << 20));
}

std::string cell(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

nlohmann::json numberOrNull(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json intOrNull(std::int64_t v) {
    return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

} // namespace

SweepVerdict sweepVerdict(const std::vector<TrialRecord>& trials) {
    SweepVerdict v;
    for (const TrialRecord& t : trials) {
        v.pruned += t.status == TrialStatus::Pruned;
        v.skipped += t.status == TrialStatus::Skipped;
        v.ran += trialRan(t.status);
        v.failed += trialRan(t.status) && t.status != TrialStatus::Finished;
    }
    v.best = bestTrial(trials);
    if (!v.best)
        return v;
    const TrialRecord& b = trials[static_cast<std::size_t>(*v.best)];
    for (const TrialRecord& t : trials)
        if (t.phase != "repeat" && t.idx != b.idx && t.status == TrialStatus::Finished &&
            std::isfinite(t.tokens_per_s) &&
            (!v.runner_up ||
             t.tokens_per_s > trials[static_cast<std::size_t>(*v.runner_up)].tokens_per_s))
            v.runner_up = t.idx;
    // Each trial's measurements: its own median and those of its repeats; the noise is
    // the largest spread among them.
    struct Range {
        double low, high, spread;
    };
    const auto rangeOf = [&](const TrialRecord& x) {
        Range r{x.tokens_per_s, x.tokens_per_s,
                std::isfinite(x.spread_tokens_per_s) ? x.spread_tokens_per_s : 0};
        for (const TrialRecord& t : trials)
            if (t.repeat_of == x.idx && t.status == TrialStatus::Finished) {
                r.low = std::min(r.low, t.tokens_per_s);
                r.high = std::max(r.high, t.tokens_per_s);
                r.spread = std::max(r.spread, t.spread_tokens_per_s);
                if (x.idx == b.idx)
                    v.best_repeats.push_back(t.tokens_per_s);
            }
        return r;
    };
    const Range best = rangeOf(b);
    v.noise_tokens_per_s = best.spread;
    if (v.runner_up) {
        const Range other = rangeOf(trials[static_cast<std::size_t>(*v.runner_up)]);
        v.noise_tokens_per_s = std::max(best.spread, other.spread);
        // The best's worst measurement against the runner-up's best one.
        v.margin_tokens_per_s = best.low - other.high;
        v.within_noise = v.margin_tokens_per_s <= v.noise_tokens_per_s;
    }
    return v;
}

std::string formatSweepTable(const SweepSpec& spec, const std::vector<TrialRecord>& trials) {
    std::vector<std::string> header = {"trial"};
    for (const SweepAxis& a : spec.axes)
        header.push_back(axisLabel(a.name));
    for (const char* h :
         {"tokens/s", "+-", "peak MiB/rank", "forecast MiB", "exposed ms", "status"})
        header.push_back(h);
    std::vector<std::vector<std::string>> rows{header};
    std::vector<std::string> reasons;
    for (const TrialRecord& t : trials) {
        const nlohmann::json axes = nlohmann::json::parse(t.axes_json);
        std::vector<std::string> row = {
            std::to_string(t.idx) +
            (t.repeat_of >= 0 ? " (=" + std::to_string(t.repeat_of) + ")" : "")};
        for (const SweepAxis& a : spec.axes)
            row.push_back(axes.contains(a.name) ? cell(axes[a.name]) : "-");
        row.push_back(std::isfinite(t.tokens_per_s) ? fmt("%.0f", t.tokens_per_s) : "-");
        row.push_back(std::isfinite(t.spread_tokens_per_s) ? fmt("%.0f", t.spread_tokens_per_s)
                                                           : "-");
        row.push_back(mib(t.peak_bytes));
        row.push_back(mib(t.forecast_bytes));
        row.push_back(std::isfinite(t.exposed_ms) ? fmt("%.2f", t.exposed_ms) : "-");
        row.push_back(std::string(trialStatusName(t.status)));
        rows.push_back(std::move(row));
        if (!t.reason.empty() && t.status != TrialStatus::Finished)
            reasons.push_back("  trial " + std::to_string(t.idx) + " " +
                              std::string(trialStatusName(t.status)) + ": " + t.reason);
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    std::ostringstream out;
    for (const auto& r : rows) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string pad(width[i] - r[i].size(), ' ');
            out << (i ? "  " : "") << (i + 1 == r.size() ? r[i] : pad + r[i]);
        }
        out << '\n';
    }
    if (!reasons.empty()) {
        out << "reasons:\n";
        for (const std::string& r : reasons)
            out << r << '\n';
    }
    return out.str();
}

std::string formatVerdict(const std::vector<TrialRecord>& trials, const SweepVerdict& v) {
    std::ostringstream out;
    out << trials.size() << " candidates: " << v.pruned << " pruned by the planner, " << v.ran
        << " trials ran (" << v.failed << " failed, timed out or out of memory), " << v.skipped
        << " skipped\n";
    if (!v.best) {
        out << "no trial finished";
        if (v.ran == 0 && v.pruned > 0)
            out << ": every candidate that was planned exceeds the capacity (raise \"capacity\")";
        out << '\n';
        return out.str();
    }
    const TrialRecord& b = trials[static_cast<std::size_t>(*v.best)];
    out << "best: trial " << b.idx << " (" << describePoint(nlohmann::json::parse(b.axes_json))
        << "): " << fmt("%.0f", b.tokens_per_s) << " tokens/s +- "
        << fmt("%.0f", b.spread_tokens_per_s);
    for (double r : v.best_repeats)
        out << ", repeat " << fmt("%.0f", r);
    out << ", peak " << mib(b.peak_bytes) << " MiB per rank\n";
    if (v.runner_up) {
        const TrialRecord& r = trials[static_cast<std::size_t>(*v.runner_up)];
        out << "runner-up: trial " << r.idx << " ("
            << describePoint(nlohmann::json::parse(r.axes_json))
            << "): " << fmt("%.0f", r.tokens_per_s) << " tokens/s; margin "
            << fmt("%.0f", v.margin_tokens_per_s) << " vs noise "
            << fmt("%.0f", v.noise_tokens_per_s) << " tokens/s: "
            << (v.within_noise ? "within the noise, not a clear win" : "a clear win") << '\n';
    }
    return out.str();
}

nlohmann::json sweepJson(const SweepRecord& sweep, const SweepSpec& spec,
                         const std::vector<TrialRecord>& trials) {
    nlohmann::json axes = nlohmann::json::array();
    for (const SweepAxis& a : spec.axes)
        axes.push_back({{"name", a.name}, {"values", a.values}});
    nlohmann::json list = nlohmann::json::array();
    for (const TrialRecord& t : trials) {
        nlohmann::json j;
        j["trial"] = t.idx;
        j["phase"] = t.phase;
        j["repeat_of"] = t.repeat_of >= 0 ? nlohmann::json(t.repeat_of) : nlohmann::json(nullptr);
        const nlohmann::json point = nlohmann::json::parse(t.axes_json);
        for (const auto& [k, v] : point.items())
            j[k] = v;
        j["axes"] = point;
        j["world"] = t.world;
        j["status"] = trialStatusName(t.status);
        j["reason"] = t.reason;
        j["tokens_per_s"] = numberOrNull(t.tokens_per_s);
        j["spread_tokens_per_s"] = numberOrNull(t.spread_tokens_per_s);
        j["peak_bytes"] = intOrNull(t.peak_bytes);
        j["exposed_ms"] = numberOrNull(t.exposed_ms);
        j["forecast_bytes"] = intOrNull(t.forecast_bytes);
        j["capacity_bytes"] = intOrNull(t.capacity_bytes);
        j["run_id"] = intOrNull(t.run_id);
        list.push_back(std::move(j));
    }
    const SweepVerdict v = sweepVerdict(trials);
    nlohmann::json best = nullptr;
    if (v.best)
        best = {{"trial", *v.best},
                {"tokens_per_s", trials[static_cast<std::size_t>(*v.best)].tokens_per_s},
                {"repeats", v.best_repeats},
                {"runner_up", v.runner_up ? nlohmann::json(*v.runner_up) : nlohmann::json(nullptr)},
                {"margin_tokens_per_s", v.margin_tokens_per_s},
                {"noise_tokens_per_s", v.noise_tokens_per_s},
                {"within_noise", v.within_noise}};
    return {{"id", sweep.id},
            {"name", sweep.name},
            {"source", sweep.source},
            {"status", sweepStatusName(sweep.status)},
            {"message", sweep.message},
            {"strategy", strategyName(spec.strategy)},
            {"warmup_steps", spec.warmup_steps},
            {"measure_steps", spec.measure_steps},
            {"axes", axes},
            {"trials", list},
            {"best", best},
            {"pruned", v.pruned},
            {"ran", v.ran},
            {"skipped", v.skipped},
            {"failed", v.failed}};
}

} // namespace zerolab
