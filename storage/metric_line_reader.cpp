// readMetricLine: a depth-bounded, non-throwing parse, then typed look-ups that treat
// a wrong type as absence.
#include "storage/metric_line_reader.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zerolab {

namespace {

using Json = nlohmann::json;

const Json* member(const Json& obj, const char* key) {
    if (!obj.is_object())
        return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

// Counts (ids, steps) are exact JSON numbers: 0..2^53. Beyond, a reader's arithmetic on
// them (steps left, steps done) could overflow.
std::optional<std::int64_t> count(const Json* v) {
    if (v == nullptr || !v->is_number_integer())
        return std::nullopt;
    if (v->is_number_unsigned())
        return v->get<std::uint64_t>() <= kMaxMetricLineCount
                   ? std::optional<std::int64_t>(static_cast<std::int64_t>(v->get<std::uint64_t>()))
                   : std::nullopt;
    const auto i = v->get<std::int64_t>();
    return i >= 0 && i <= kMaxMetricLineCount ? std::optional<std::int64_t>(i) : std::nullopt;
}

std::optional<double> number(const Json* v) {
    if (v == nullptr || !v->is_number())
        return std::nullopt;
    const double d = v->get<double>();
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

MetricLineType typeOf(const Json* v) {
    if (v == nullptr || !v->is_string())
        return MetricLineType::Other;
    const auto& s = v->get_ref<const std::string&>();
    return s == "run"     ? MetricLineType::Run
           : s == "step"  ? MetricLineType::Step
           : s == "event" ? MetricLineType::Event
           : s == "end"   ? MetricLineType::End
                          : MetricLineType::Other;
}

} // namespace

std::optional<MetricLineFields> readMetricLine(std::string_view line) {
    // Returning false drops a value; for a container that also skips its contents.
    const Json::parser_callback_t keepShallow = [](int depth, Json::parse_event_t, Json&) {
        return depth <= kMaxMetricLineDepth;
    };
    const Json j = Json::parse(line.begin(), line.end(), keepShallow, false);
    if (!j.is_object())
        return std::nullopt;
    MetricLineFields f;
    f.type = typeOf(member(j, "type"));
    if (f.type == MetricLineType::Run) {
        f.run_id = count(member(j, "run_id"));
        if (const Json* config = member(j, "config"))
            if (const Json* run = member(*config, "run"))
                f.total_steps = count(member(*run, "steps"));
    } else if (f.type == MetricLineType::Step) {
        f.step = count(member(j, "step"));
        f.wall_time_s = number(member(j, "wall_time_s"));
        f.tokens_per_s = number(member(j, "tokens_per_s"));
        f.loss = number(member(j, "loss"));
    }
    return f;
}

} // namespace zerolab
