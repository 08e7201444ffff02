// Chrome trace-event JSON ("JSON Object Format" of the Trace Event Format): complete
// events "X" with ts/dur in µs, metadata "M" naming processes (ranks) and threads
// (lanes), counters "C" for memory, flow events "s"/"t"/"f" chaining a collective's
// slices by seq across ranks, instant events "i" marking steps. Streamed one event at
// a time, one step in memory.
#include "storage/trace_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>

namespace zerolab {

namespace {

using nlohmann::json;

const char* laneName(TimelineLane lane) {
    return lane == TimelineLane::Compute ? "compute" : "comm";
}

std::string spanName(const TimelineSpan& s) {
    std::string name(spanKindName(s.kind));
    if (s.kind == SpanKind::Collective)
        name = std::string(collectiveName(s.collective));
    else if (s.kind == SpanKind::Wait)
        name += " " + std::string(collectiveName(s.collective));
    if (s.unit >= 0)
        name += " u" + std::to_string(s.unit);
    return name;
}

json spanArgs(const TimelineSpan& s) {
    json args = json::object();
    if (s.unit >= 0)
        args["unit"] = s.unit;
    if (s.micro >= 0)
        args["micro"] = s.micro;
    if (s.kind == SpanKind::Collective || s.kind == SpanKind::Wait) {
        args["kind"] = std::string(collectiveName(s.collective));
        args["seq"] = s.seq;
    }
    if (s.kind == SpanKind::Collective) {
        args["bytes"] = s.bytes;
        args["issue_us"] = s.issue_us;
        args["queued_us"] = s.start_us - s.issue_us;
    }
    return args;
}

class TraceWriter {
public:
    explicit TraceWriter(std::ostream& out) : m_out(out) { m_out << "{\"traceEvents\":[\n"; }
    void event(const json& e) {
        m_out << (m_first ? "" : ",\n") << e.dump(-1, ' ', false, json::error_handler_t::replace);
        m_first = false;
    }
    void finish(const json& otherData) {
        m_out << "\n],\"displayTimeUnit\":\"ms\",\"otherData\":"
              << otherData.dump(-1, ' ', false, json::error_handler_t::replace) << "}\n";
    }

private:
    std::ostream& m_out;
    bool m_first = true;
};

// Names and order of ranks [from, to) and of their lanes.
void metadata(TraceWriter& w, int from, int to) {
    for (int r = from; r < to; ++r) {
        w.event({{"ph", "M"},
                 {"name", "process_name"},
                 {"pid", r},
                 {"tid", 0},
                 {"args", {{"name", "rank " + std::to_string(r)}}}});
        w.event({{"ph", "M"},
                 {"name", "process_sort_index"},
                 {"pid", r},
                 {"tid", 0},
                 {"args", {{"sort_index", r}}}});
        for (TimelineLane lane : {TimelineLane::Compute, TimelineLane::Comm}) {
            const int tid = static_cast<int>(lane);
            w.event({{"ph", "M"},
                     {"name", "thread_name"},
                     {"pid", r},
                     {"tid", tid},
                     {"args", {{"name", laneName(lane)}}}});
            w.event({{"ph", "M"},
                     {"name", "thread_sort_index"},
                     {"pid", r},
                     {"tid", tid},
                     {"args", {{"sort_index", tid}}}});
        }
    }
}

// Writes one step at `base` (its earliest event); returns where its last event ends.
// Flow ids continue from `flowId`.
double writeStep(TraceWriter& w, const StepTimeline& tl, double base, long long& flowId) {
    double first = 0, last = 0;
    for (const TimelineSpan& s : tl.spans) {
        first = std::min({first, s.issue_us, s.start_us});
        last = std::max(last, s.end_us);
    }
    for (const TimelineMemory& m : tl.memory) {
        first = std::min(first, m.t_us);
        last = std::max(last, m.t_us);
    }
    const double shift = base - first;
    w.event({{"ph", "i"},
             {"s", "g"},
             {"name", "step " + std::to_string(tl.step)},
             {"pid", 0},
             {"tid", 0},
             {"ts", base},
             {"args", {{"step", tl.step}}}});
    // Collectives by seq, in rank order, for the flow chains.
    std::map<int, std::vector<const TimelineSpan*>> bySeq;
    for (const TimelineSpan& s : tl.spans) {
        json args = spanArgs(s);
        args["step"] = tl.step;
        w.event({{"ph", "X"},
                 {"name", spanName(s)},
                 {"cat", std::string(spanKindName(s.kind))},
                 {"pid", s.rank},
                 {"tid", static_cast<int>(laneOf(s.kind))},
                 {"ts", s.start_us + shift},
                 {"dur", std::max(0.0, s.end_us - s.start_us)},
                 {"args", std::move(args)}});
        if (s.kind == SpanKind::Collective && s.seq >= 0)
            bySeq[s.seq].push_back(&s);
    }
    for (auto& [seq, spans] : bySeq) {
        if (spans.size() < 2)
            continue;
        std::sort(spans.begin(), spans.end(),
                  [](const TimelineSpan* a, const TimelineSpan* b) { return a->rank < b->rank; });
        const long long id = flowId++;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            const TimelineSpan& s = *spans[i];
            const char* ph = i == 0 ? "s" : i + 1 == spans.size() ? "f" : "t";
            json e = {{"ph", ph},
                      {"name", "collective " + std::to_string(seq)},
                      {"cat", "seq"},
                      {"id", id},
                      {"pid", s.rank},
                      {"tid", static_cast<int>(TimelineLane::Comm)},
                      {"ts", s.start_us + shift}};
            if (i + 1 == spans.size())
                e["bp"] = "e"; // bind to the enclosing slice, the collective itself
            w.event(e);
        }
    }
    // One counter event per (rank, time) with every category sampled then.
    std::map<std::pair<int, double>, json> counters;
    for (const TimelineMemory& m : tl.memory) {
        json& c = counters[{m.rank, m.t_us}];
        c[std::string(memCategoryName(m.category))] = m.bytes;
    }
    for (auto& [at, args] : counters)
        w.event({{"ph", "C"},
                 {"name", "memory (bytes)"},
                 {"pid", at.first},
                 {"ts", at.second + shift},
                 {"args", std::move(args)}});
    return last + shift;
}

bool parseCount(std::string_view s, long long& v) {
    if (s.empty())
        return false;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    return res.ec == std::errc() && res.ptr == s.data() + s.size() && v >= 0;
}

} // namespace

std::optional<StepRange> parseStepRange(const std::string& text) {
    StepRange r;
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        if (!parseCount(text, r.first))
            return std::nullopt;
        r.last = r.first;
        return r;
    }
    const std::string_view a = std::string_view(text).substr(0, colon);
    const std::string_view b = std::string_view(text).substr(colon + 1);
    if ((a.empty() && b.empty()) || (!a.empty() && !parseCount(a, r.first)) ||
        (!b.empty() && !parseCount(b, r.last)) || r.first > r.last)
        return std::nullopt;
    return r;
}

void exportTrace(RunReader& reader, std::int64_t run_id, const std::vector<long long>& steps,
                 std::ostream& out) {
    const RunRecord run = reader.run(run_id);
    TraceWriter w(out);
    int world = 0;
    double base = 0;
    long long flowId = 1;
    for (long long step : steps) {
        const auto tl = reader.timeline(run_id, step);
        if (!tl)
            throw StoreError("run " + std::to_string(run_id) + " '" + run.info.name + "': step " +
                             std::to_string(step) + " has no timeline");
        if (tl->world > world) {
            metadata(w, world, tl->world);
            world = tl->world;
        }
        base = writeStep(w, *tl, base, flowId) + kTraceStepGapUs;
    }
    w.finish({{"run", run_id},
              {"name", run.info.name},
              {"steps", steps},
              {"clock", "microseconds on rank 0's clock; each step laid after the previous "
                        "one (docs/metrics.md, Step timeline)"}});
}

} // namespace zerolab
