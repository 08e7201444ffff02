// Parsing a sweep file: every problem collected, then one SweepError naming file and path.
#include "runtime/tune/sweep_spec.h"

#include "runtime/config/config_paths.h"
#include "runtime/config/json_text.h"
#include "runtime/planner/plan_devices.h"
#include "storage/stored_text.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kMaxSweepFileBytes = 16 << 20;

const std::set<std::string> kKeys = {"name",         "base",          "axes",
                                     "strategy",     "capacity",      "hold_global_batch",
                                     "warmup_steps", "measure_steps", "trial_timeout_s",
                                     "repeat_best",  "launcher",      "max_candidates"};

// A sweep's trials write only in the sweep's folder (config_paths.h); they may read data.
constexpr const char* kChoosesWhereFilesGo =
    "a sweep's trials may not choose where they write files: remove it (they run in the "
    "sweep's folder)";

std::string readText(const std::string& path, const std::string& what) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw SweepError(path + ": " + what + " is not a readable file");
    if (fs::file_size(path, ec) > static_cast<std::uintmax_t>(kMaxSweepFileBytes))
        throw SweepError(path + ": " + what + " is larger than 16 MiB");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in)
        throw SweepError(path + ": cannot read " + what);
    return s.str();
}

nlohmann::json parseText(const std::string& text, const std::string& path) {
    auto parsed = parseJsonText<nlohmann::json>(text);
    if (parsed.error) {
        std::string where = parsed.error->path.empty() ? "" : parsed.error->path + ": ";
        if (parsed.error->byte)
            where = "byte " + std::to_string(*parsed.error->byte) + ": ";
        throw SweepError(path + ": " + where + parsed.error->message);
    }
    return std::move(*parsed.doc);
}

struct Problems {
    std::string source;
    std::vector<std::string> lines;
    void add(const std::string& path, const std::string& message) {
        lines.push_back((source.empty() ? std::string("sweep") : source) + ": " + path + ": " +
                        message);
    }
};

int positiveInt(const nlohmann::json& doc, const char* key, int fallback, int minimum,
                Problems& p) {
    if (!doc.contains(key))
        return fallback;
    const auto& v = doc[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < minimum ||
        v.get<std::int64_t>() > 1'000'000) {
        p.add(key, "expected an integer from " + std::to_string(minimum) + " to 1000000, got " +
                       describeJson(v));
        return fallback;
    }
    return v.get<int>();
}

// The axis's values, each refused where it repeats an earlier one: one ordered set, so
// 200,000 values are checked in well under a second (each was compared with every earlier
// one).
void addAxisValues(SweepAxis& axis, const nlohmann::json& values, const std::string& path,
                   Problems& p) {
    std::set<nlohmann::json> seen;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto& x = values[i];
        const std::string ip = path + "[" + std::to_string(i) + "]";
        if (axis.name == kWorldAxis &&
            (!x.is_number_integer() || x.get<std::int64_t>() < 1 || x.get<std::int64_t>() > 4096)) {
            p.add(ip, "N must be an integer from 1 to 4096, got " + describeJson(x));
            continue;
        }
        if (x.is_object() || x.is_array() || x.is_null()) {
            p.add(ip, "expected a number, string or boolean, got " + describeJson(x));
            continue;
        }
        if (!seen.insert(x).second)
            p.add(ip, "repeats the value " + describeJson(x));
        axis.values.push_back(x);
    }
}

// The candidates (the product of the axes' lengths, saturating) against the cap: a sweep
// beyond it is refused before anything is planned or stored.
void checkCandidateCount(const SweepSpec& s, Problems& p) {
    std::int64_t count = 1;
    for (const SweepAxis& a : s.axes) {
        const auto n = static_cast<std::int64_t>(a.values.size());
        count = (n != 0 && count > std::numeric_limits<std::int64_t>::max() / n)
                    ? std::numeric_limits<std::int64_t>::max()
                    : count * n;
    }
    if (count > s.max_candidates)
        p.add("axes", std::to_string(count) +
                          " candidates (the product of the axes' lengths) is "
                          "more than the cap of " +
                          std::to_string(s.max_candidates) +
                          ": remove values, or raise \"max_candidates\" (at most " +
                          std::to_string(kMaxCandidatesLimit) + ")");
}

} // namespace

std::optional<std::string> sweepNameProblem(const std::string& name) {
    return storedTextProblem(name, TextKind::OneLine, kMaxSweepNameBytes);
}

std::string_view strategyName(SweepStrategy s) {
    return s == SweepStrategy::Grid ? "grid" : "guided";
}

bool isBucketAxis(const std::string& name) {
    return name == "zero_optimization.reduce_bucket_size" ||
           name == "zero_optimization.allgather_bucket_size" ||
           name == "zero_optimization.overlap_comm";
}

nlohmann::json SweepSpec::toJson() const {
    nlohmann::json axes_json = nlohmann::json::object();
    for (const SweepAxis& a : axes)
        axes_json[a.name] = a.values;
    nlohmann::json cap;
    switch (capacity.kind) {
    case SweepCapacity::Kind::Host:
        cap = "host";
        break;
    case SweepCapacity::Kind::Device:
        cap = capacity.device;
        break;
    case SweepCapacity::Kind::Bytes:
        cap = capacity.bytes;
        break;
    }
    // The axes' order matters (the guided search walks the last micro-batch axis); JSON
    // objects do not keep it, so it is written out as well.
    nlohmann::json order = nlohmann::json::array();
    for (const SweepAxis& a : axes)
        order.push_back(a.name);
    return {{"name", name},
            {"base", base},
            {"axes", axes_json},
            {"axis_order", order},
            {"strategy", strategyName(strategy)},
            {"capacity", cap},
            {"hold_global_batch", hold_global_batch},
            {"warmup_steps", warmup_steps},
            {"measure_steps", measure_steps},
            {"trial_timeout_s", trial_timeout_s},
            {"repeat_best", repeat_best},
            {"launcher", launcher},
            {"max_candidates", max_candidates}};
}

SweepSpec parseSweepFile(const std::string& path) {
    const std::string text = readText(path, "the sweep file");
    nlohmann::json doc = parseText(text, path);
    // nlohmann::json sorts an object's keys; the axes' order is the file's, so it is
    // read once more keeping the order.
    const auto ordered = parseJsonText<nlohmann::ordered_json>(text);
    if (ordered.doc && doc.is_object() && doc.contains("axes") && doc["axes"].is_object() &&
        !doc.contains("axis_order")) {
        nlohmann::json order = nlohmann::json::array();
        for (const auto& [k, v] : (*ordered.doc)["axes"].items())
            order.push_back(k);
        doc["axis_order"] = order;
    }
    return parseSweepJson(doc, path);
}

SweepSpec parseSweepJson(const nlohmann::json& doc, const std::string& source) {
    SweepSpec s;
    s.source = source;
    Problems p{source, {}};
    if (!doc.is_object())
        throw SweepError((source.empty() ? "sweep" : source) + ": expected a JSON object, got " +
                         describeJson(doc));
    for (const auto& [k, v] : doc.items())
        if (!kKeys.count(k) && k != "axis_order")
            p.add(k, "unknown key (expected one of name, base, axes, strategy, capacity, "
                     "hold_global_batch, warmup_steps, measure_steps, trial_timeout_s, "
                     "repeat_best, launcher)");
    s.name = source.empty() ? "sweep" : fs::path(source).stem().string();
    if (doc.contains("name")) {
        if (doc["name"].is_string() && !doc["name"].get<std::string>().empty())
            s.name = doc["name"].get<std::string>();
        else
            p.add("name", "expected a non-empty string, got " + describeJson(doc["name"]));
    }
    if (const auto problem = sweepNameProblem(s.name))
        p.add(doc.contains("name") ? "name" : "name (the file's stem)",
              *problem + " (a sweep's name starts its trials' run names)");
    if (!doc.contains("base")) {
        p.add("base", "required: a config object or the path of a config file");
    } else if (doc["base"].is_object()) {
        s.base = doc["base"];
    } else if (doc["base"].is_string()) {
        fs::path bp = doc["base"].get<std::string>();
        if (bp.is_relative() && !source.empty())
            bp = fs::path(source).parent_path() / bp;
        try {
            s.base = parseText(readText(bp.string(), "base config"), bp.string());
            if (!s.base.is_object())
                p.add("base", bp.string() + ": expected a JSON object");
        } catch (const SweepError& e) {
            p.add("base", e.what());
        }
    } else {
        p.add("base", "expected a config object or a path, got " + describeJson(doc["base"]));
    }
    for (const std::string& key : configPathsIn(s.base, false))
        p.add("base." + key, kChoosesWhereFilesGo);
    if (!doc.contains("axes") || !doc["axes"].is_object() || doc["axes"].empty()) {
        p.add("axes", "required: an object of at least one axis, each a list of values");
    } else {
        std::vector<std::string> order;
        if (doc.contains("axis_order") && doc["axis_order"].is_array())
            for (const auto& n : doc["axis_order"])
                if (n.is_string() && doc["axes"].contains(n.get<std::string>()))
                    order.push_back(n.get<std::string>());
        if (order.size() != doc["axes"].size()) {
            order.clear();
            for (const auto& [k, v] : doc["axes"].items())
                order.push_back(k);
        }
        for (const std::string& k : order) {
            const auto& v = doc["axes"][k];
            const std::string path = "axes." + k;
            if (k.empty() || k.front() == '.' || k.back() == '.' ||
                k.find("..") != std::string::npos) {
                p.add(path, "an axis is \"world\" or a config JSON path such as "
                            "\"zero_optimization.stage\"");
                continue;
            }
            if (!v.is_array() || v.empty()) {
                p.add(path, "expected a non-empty list of values, got " + describeJson(v));
                continue;
            }
            for (std::size_t i = 0; i < v.size(); ++i) {
                nlohmann::json placed = v[i]; // the value where the axis puts it
                for (std::size_t end = k.size(); end != std::string::npos && end > 0;) {
                    const std::size_t dot = k.rfind('.', end - 1);
                    const std::size_t begin = dot == std::string::npos ? 0 : dot + 1;
                    placed = nlohmann::json{{k.substr(begin, end - begin), std::move(placed)}};
                    end = dot;
                }
                for (const std::string& key : configPathsIn(placed, false))
                    p.add(path + "[" + std::to_string(i) + "]",
                          "sets " + key + ": " + std::string(kChoosesWhereFilesGo));
            }
            SweepAxis axis{k, {}};
            addAxisValues(axis, v, path, p);
            s.axes.push_back(std::move(axis));
        }
    }
    if (doc.contains("strategy")) {
        const auto& v = doc["strategy"];
        if (v == "grid")
            s.strategy = SweepStrategy::Grid;
        else if (v == "guided")
            s.strategy = SweepStrategy::Guided;
        else
            p.add("strategy", "expected \"grid\" or \"guided\", got " + describeJson(v));
    }
    if (doc.contains("capacity")) {
        const auto& v = doc["capacity"];
        if (v == "host") {
            s.capacity.kind = SweepCapacity::Kind::Host;
        } else if (v.is_string() && findDevice(v.get<std::string>())) {
            s.capacity.kind = SweepCapacity::Kind::Device;
            s.capacity.device = v.get<std::string>();
        } else if (v.is_number() && v.get<double>() >= 1 && v.get<double>() < 9.2e18) {
            s.capacity.kind = SweepCapacity::Kind::Bytes;
            s.capacity.bytes = static_cast<std::int64_t>(v.get<double>());
        } else {
            std::string presets;
            for (const auto& d : kDevicePresets)
                presets += std::string(", \"") + std::string(d.key) + "\"";
            p.add("capacity", "expected \"host\" (host RAM / N), a device" + presets +
                                  ", or bytes per rank, got " + describeJson(v));
        }
    }
    if (doc.contains("hold_global_batch")) {
        if (doc["hold_global_batch"].is_boolean())
            s.hold_global_batch = doc["hold_global_batch"].get<bool>();
        else
            p.add("hold_global_batch",
                  "expected true or false, got " + describeJson(doc["hold_global_batch"]));
    }
    s.warmup_steps = positiveInt(doc, "warmup_steps", s.warmup_steps, 0, p);
    s.measure_steps = positiveInt(doc, "measure_steps", s.measure_steps, 1, p);
    s.repeat_best = positiveInt(doc, "repeat_best", s.repeat_best, 0, p);
    if (doc.contains("trial_timeout_s")) {
        const auto& v = doc["trial_timeout_s"];
        if (v.is_number() && v.get<double>() > 0 && v.get<double>() <= 7 * 86400)
            s.trial_timeout_s = v.get<double>();
        else
            p.add("trial_timeout_s",
                  "expected seconds above 0 and at most a week, got " + describeJson(v));
    }
    if (doc.contains("max_candidates")) {
        const auto& v = doc["max_candidates"];
        if (v.is_number_integer() && v.get<std::int64_t>() >= 1 &&
            v.get<std::int64_t>() <= kMaxCandidatesLimit)
            s.max_candidates = v.get<std::int64_t>();
        else
            p.add("max_candidates", "expected an integer from 1 to " +
                                        std::to_string(kMaxCandidatesLimit) + ", got " +
                                        describeJson(v));
    }
    checkCandidateCount(s, p);
    if (doc.contains("launcher")) {
        if (doc["launcher"].is_string() && !doc["launcher"].get<std::string>().empty())
            s.launcher = doc["launcher"].get<std::string>();
        else
            p.add("launcher",
                  "expected a program name or path, got " + describeJson(doc["launcher"]));
    }
    if (!p.lines.empty()) {
        std::string all;
        for (const std::string& l : p.lines)
            all += (all.empty() ? "" : "\n") + l;
        throw SweepError(all);
    }
    return s;
}

} // namespace zerolab
