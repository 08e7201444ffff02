// Candidates: grid expansion, axis values set into the base, planning against capacity.
#include "runtime/tune/sweep_candidates.h"

#include "runtime/config/cpu_threads.h"
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"
#include "runtime/tune/sweep_texts.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace zerolab {

namespace {

std::string bytesText(long long bytes) {
    return formatBytes(static_cast<double>(bytes), ByteUnit::GB);
}

std::vector<std::string> splitPath(const std::string& path) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(path);
    while (std::getline(in, part, '.'))
        parts.push_back(part);
    return parts;
}

std::string firstErrors(const ConfigResult& r, const std::string& source) {
    std::string out;
    for (const ConfigDiagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error)
            out += (out.empty() ? "" : "; ") + formatDiagnostic(source, d);
    return out;
}

} // namespace

std::vector<nlohmann::json> gridPoints(const std::vector<SweepAxis>& axes) {
    std::vector<nlohmann::json> points{nlohmann::json::object()};
    for (const SweepAxis& axis : axes) {
        std::vector<nlohmann::json> next;
        for (const nlohmann::json& p : points)
            for (const nlohmann::json& v : axis.values) {
                nlohmann::json q = p;
                q[axis.name] = v;
                next.push_back(std::move(q));
            }
        points = std::move(next);
    }
    return points;
}

nlohmann::json candidateConfig(const SweepSpec& spec, const nlohmann::json& point, int* world) {
    nlohmann::json doc = spec.base;
    const std::string where = (spec.source.empty() ? std::string("sweep") : spec.source) + ": ";
    // N without a world axis: what the base's own batch numbers decide.
    // N and the accumulation without their axes: what the base's own numbers decide.
    const ConfigResult base = parseConfig(spec.base, std::nullopt, spec.source + ": base");
    if (!base.ok())
        throw SweepError(firstErrors(base, spec.source + ": base"));
    const int n =
        point.contains(kWorldAxis) ? point[kWorldAxis].get<int>() : base.config->batch.world;
    bool accum_axis = false;
    for (const auto& [name, value] : point.items()) {
        if (name == kWorldAxis)
            continue;
        accum_axis = accum_axis || name == "gradient_accumulation_steps";
        nlohmann::json* node = &doc;
        const std::vector<std::string> parts = splitPath(name);
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            if (!node->contains(parts[i]))
                (*node)[parts[i]] = nlohmann::json::object();
            node = &(*node)[parts[i]];
            if (!node->is_object())
                throw SweepError(where + "axes." + name + ": the base's \"" + parts[i] +
                                 "\" is not an object");
        }
        (*node)[parts.back()] = value;
    }
    // Threads per rank held fixed across N (the runtime's own rule would give each N its
    // own), unless an axis sets them.
    if (const int threads = sweepThreads(spec); threads > 0)
        doc["run"]["threads"] = threads;
    // DeepSpeed's rule, train_batch_size = micro x accumulation x N: one of the three
    // follows the other two.
    if (spec.hold_global_batch) {
        if (!accum_axis)
            doc.erase("gradient_accumulation_steps");
    } else if (doc.contains("train_micro_batch_size_per_gpu")) {
        doc.erase("train_batch_size");
        if (!accum_axis)
            doc["gradient_accumulation_steps"] = base.config->batch.grad_accum;
    }
    *world = n;
    return doc;
}

std::int64_t capacityBytes(const SweepCapacity& capacity, int world) {
    switch (capacity.kind) {
    case SweepCapacity::Kind::Host:
        return hostMemoryBytes() / std::max(world, 1);
    case SweepCapacity::Kind::Device:
        return findDevice(capacity.device)->usableBytes();
    case SweepCapacity::Kind::Bytes:
        break;
    }
    return capacity.bytes;
}

int sweepThreads(const SweepSpec& spec) {
    int largest = 0;
    for (const SweepAxis& a : spec.axes) {
        if (a.name == kThreadsAxis)
            return 0;
        if (a.name == kWorldAxis)
            for (const nlohmann::json& v : a.values)
                largest = std::max(largest, v.get<int>());
    }
    const ConfigResult base = parseConfig(spec.base, std::nullopt, spec.source + ": base");
    if (!base.ok() || base.config->run.device != Device::Cpu)
        return 0;
    if (base.config->run.threads > 0)
        return base.config->run.threads;
    return autoThreadsPerRank(largest > 0 ? largest : base.config->batch.world);
}

nlohmann::json trialRunConfig(const SweepSpec& spec, const nlohmann::json& doc, int world) {
    nlohmann::json run = doc;
    run["run"]["steps"] = spec.warmup_steps + spec.measure_steps;
    run["run"]["log_every"] = 1;
    run["run"]["checkpoint_every"] = 0;
    run["run"]["timeline_every"] = 0;
    const nlohmann::json* params = nullptr;
    if (doc.contains("scheduler") && doc["scheduler"].is_object() &&
        doc["scheduler"].contains("params") && doc["scheduler"]["params"].is_object())
        params = &doc["scheduler"]["params"];
    if (params && params->contains("total_num_steps") && (*params)["total_num_steps"] == "auto") {
        const ConfigResult own = parseConfig(doc, world, spec.source);
        if (own.ok())
            run["scheduler"]["params"]["total_num_steps"] = own.config->run.steps;
    }
    return run;
}

std::string trialRunErrors(const SweepSpec& spec, const nlohmann::json& doc, int world,
                           const std::string& label) {
    const ConfigResult r = parseConfig(trialRunConfig(spec, doc, world), world, label);
    return r.ok() ? std::string() : firstErrors(r, label);
}

TrialRecord planTrial(const SweepSpec& spec, const nlohmann::json& point,
                      const std::string& phase) {
    TrialRecord t;
    t.phase = phase;
    t.axes_json = point.dump();
    int world = 1;
    const nlohmann::json doc = candidateConfig(spec, point, &world);
    t.config_json = doc.dump();
    t.world = world;
    const std::string label = spec.source + " at " + describePoint(point);
    // Checked as its trial will run it: a base whose schedule the trial's steps cannot
    // hold is refused here, in the preview, not by every trial's ranks.
    const ConfigResult r = parseConfig(trialRunConfig(spec, doc, world), world, label);
    if (!r.ok()) {
        t.status = TrialStatus::Invalid;
        t.reason = firstErrors(r, label);
        return t;
    }
    try {
        const StagePlan p = predictRun(*r.config);
        t.forecast_bytes = p.total_bytes;
        t.capacity_bytes = capacityBytes(spec.capacity, world);
        if (t.forecast_bytes > t.capacity_bytes) {
            t.status = TrialStatus::Pruned;
            std::string parts;
            for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                if (p.per_rank.bytes[c] > 0)
                    parts += (parts.empty() ? "" : ", ") + std::string(kMemCategoryNames[c]) + " " +
                             bytesText(p.per_rank.bytes[c]);
            t.reason =
                renderEnglish(Message(kReasonOverCapacity, {bytesText(t.forecast_bytes),
                                                            bytesText(t.capacity_bytes), parts}));
        }
    } catch (const PlanError& e) {
        t.status = TrialStatus::Invalid;
        t.reason = label + ": " + e.what();
    }
    return t;
}

TrainConfig trialConfig(const TrialRecord& trial, const std::string& source) {
    const std::string label = source + ": trial " + std::to_string(trial.idx);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(trial.config_json);
    } catch (const nlohmann::json::exception& e) {
        throw SweepError(label + ": stored config is not JSON: " + e.what());
    }
    const ConfigResult r = parseConfig(doc, trial.world, label);
    if (!r.ok())
        throw SweepError(firstErrors(r, label));
    return *r.config;
}

std::string axisLabel(const std::string& axis) {
    const auto dot = axis.rfind('.');
    const std::string last = dot == std::string::npos ? axis : axis.substr(dot + 1);
    if (last == kMicroBatchAxis)
        return "micro";
    return last;
}

std::string describePoint(const nlohmann::json& axes) {
    std::string out;
    for (const auto& [k, v] : axes.items())
        out += (out.empty() ? "" : " ") + axisLabel(k) + "=" +
               (v.is_string() ? v.get<std::string>() : v.dump());
    return out;
}

} // namespace zerolab
