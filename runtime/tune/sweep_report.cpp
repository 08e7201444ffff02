// Table, verdict and JSON of a sweep; see sweep_report.h.
#include "runtime/tune/sweep_report.h"

#include "runtime/planner/planner_units.h"
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

// Bytes in a table column of unit `scale` ("-" when unknown).
std::string inUnit(std::int64_t bytes, const ByteScale& scale) {
    return bytes < 0 ? "-"
                     : fmt(scale.divisor == 1 ? "%.0f" : "%.1f",
                           static_cast<double>(bytes) / scale.divisor);
}

std::string bytesText(std::int64_t bytes) {
    return bytes < 0 ? "-" : formatBytes(static_cast<double>(bytes), ByteUnit::GB);
}

} // namespace

int trialThreads(const TrialRecord& t) {
    const auto doc = nlohmann::json::parse(t.config_json, nullptr, false);
    if (doc.is_object() && doc.contains("run") && doc["run"].is_object() &&
        doc["run"].contains("threads") && doc["run"]["threads"].is_number_integer())
        return std::max(0, doc["run"]["threads"].get<int>());
    return 0;
}

namespace {

std::string threadsCell(const TrialRecord& t) {
    const int n = trialThreads(t);
    return n > 0 ? std::to_string(n) : "auto";
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
    // Each trial's measurements: its own median and those of its repeats; the noise is the
    // largest spread within a run or between runs of one config.
    const TrialMeasurements best = measurementsOf(b, trials);
    for (std::size_t i = 1; i < best.medians.size(); ++i)
        v.best_repeats.push_back(best.medians[i]);
    v.noise_tokens_per_s = best.noise();
    v.winner_unknown = best.disagree();
    if (v.runner_up) {
        const TrialMeasurements other =
            measurementsOf(trials[static_cast<std::size_t>(*v.runner_up)], trials);
        v.noise_tokens_per_s = std::max(best.noise(), other.noise());
        // The best's worst measurement against the runner-up's best one.
        v.margin_tokens_per_s = best.low() - other.high();
        v.within_noise = v.margin_tokens_per_s <= v.noise_tokens_per_s;
    }
    return v;
}

std::string formatSweepTable(const SweepSpec& spec, const std::vector<TrialRecord>& trials) {
    // One decimal unit per byte column, scaled to its largest value (docs/tune.md, Output).
    double peak_max = 0, forecast_max = 0;
    for (const TrialRecord& t : trials) {
        peak_max = std::max(peak_max, static_cast<double>(t.peak_bytes));
        forecast_max = std::max(forecast_max, static_cast<double>(t.forecast_bytes));
    }
    const ByteScale peak_unit = byteScaleFor(peak_max, ByteUnit::GB);
    const ByteScale forecast_unit = byteScaleFor(forecast_max, ByteUnit::GB);
    const bool threads_axis =
        std::any_of(spec.axes.begin(), spec.axes.end(),
                    [](const SweepAxis& a) { return a.name == kThreadsAxis; });
    std::vector<std::string> header = {"trial"};
    for (const SweepAxis& a : spec.axes)
        header.push_back(axisLabel(a.name));
    if (!threads_axis)
        header.push_back("threads");
    for (const std::string& h : {std::string("tokens/s"), std::string("+-"),
                                 "peak RSS " + std::string(peak_unit.name) + "/rank",
                                 "ledger forecast " + std::string(forecast_unit.name),
                                 std::string("exposed ms"), std::string("status")})
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
        if (!threads_axis)
            row.push_back(threadsCell(t));
        row.push_back(std::isfinite(t.tokens_per_s) ? fmt("%.0f", t.tokens_per_s) : "-");
        row.push_back(std::isfinite(t.spread_tokens_per_s) ? fmt("%.0f", t.spread_tokens_per_s)
                                                           : "-");
        row.push_back(inUnit(t.peak_bytes, peak_unit));
        row.push_back(inUnit(t.forecast_bytes, forecast_unit));
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
    out << "peak RSS: a rank's whole process at its largest (VmHWM; on a GPU the device's peak),\n"
           "  libraries and MPI included; ledger forecast: the planner's total of what the\n"
           "  runtime allocates per rank. They measure different things.\n";
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
    out << ", peak RSS " << bytesText(b.peak_bytes) << " per rank\n";
    if (v.winner_unknown) {
        const TrialMeasurements m = measurementsOf(b, trials);
        out << "the winner is unknown: trial " << b.idx << "'s " << m.medians.size()
            << " runs measured " << fmt("%.0f", m.low()) << " to " << fmt("%.0f", m.high())
            << " tokens/s, further apart than their spread (+- " << fmt("%.0f", m.spread)
            << "); measure on a quieter machine or with more measure_steps\n";
    }
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
        j["threads"] =
            trialThreads(t) > 0 ? nlohmann::json(trialThreads(t)) : nlohmann::json(nullptr);
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
                {"within_noise", v.within_noise},
                {"winner_unknown", v.winner_unknown}};
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
