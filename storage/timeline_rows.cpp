// Timeline rows: one row per sampled step, every rank's spans and memory samples as two
// JSON texts of arrays (schema.sql gives the layout), written here and read back through
// SQLite's json_each; kinds, collectives and categories by their names
// (kSpanKindNames, kCollectiveNames, kMemCategoryNames), times as integer nanoseconds.
#include "storage/timeline_rows.h"

#include "storage/sqlite_db.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

namespace zerolab {

namespace {

bool hasCollective(SpanKind k) {
    return k == SpanKind::Collective || k == SpanKind::Wait;
}

template <typename E, std::size_t N>
std::string_view checkedName(const std::array<std::string_view, N>& names, E v, const char* what,
                             const std::string& context) {
    const auto i = static_cast<std::size_t>(v);
    if (i >= N)
        throw StoreError(context + ": unknown " + what + " " + std::to_string(static_cast<int>(v)));
    return names[i];
}

void checkRank(int rank, int world, const std::string& context) {
    if (rank < 0 || rank >= world)
        throw StoreError(context + ": rank " + std::to_string(rank) + " outside the world of " +
                         std::to_string(world));
}

// A rank read back from a timeline's JSON (any integer there): within the timeline's world.
int storedRank(std::int64_t rank, int world, const char* column, const std::string& context) {
    if (rank < 0 || rank >= world)
        throw StoreError(context + ": table timelines, " + column + ": rank " +
                         std::to_string(rank) + " outside the world of " + std::to_string(world) +
                         " (ranks 0.." + std::to_string(world - 1) + ")");
    return static_cast<int>(rank);
}

// Times are stored to the nanosecond; ns / 1e3 is what the recorder computes, so its
// values come back bit for bit.
std::int64_t toNs(double us) {
    return std::llround(us * 1e3);
}
double toUs(std::int64_t ns) {
    return static_cast<double>(ns) / 1e3;
}

// The JSON texts are built by hand: numbers through to_chars, names from fixed tables
// that need no escaping.
void appendInt(std::string& out, long long v) {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out += ',';
    out.append(buf, end);
}

void appendName(std::string& out, std::string_view name) {
    out += ",\"";
    out += name;
    out += '"';
}

// [[rank, kind, start_ns, end_ns, unit, micro, collective, bytes, seq, issue_ns], ...],
// each array cut after its last element that differs from its default (unit and micro -1,
// collective null, bytes 0, seq -1, issue_ns = start_ns): most spans need four elements.
std::string spansJson(const StepTimeline& tl, const std::string& context) {
    std::string out = "[";
    out.reserve(48 * tl.spans.size() + 2);
    for (const TimelineSpan& s : tl.spans) {
        checkRank(s.rank, tl.world, context);
        const std::string_view kind = checkedName(kSpanKindNames, s.kind, "span kind", context);
        const std::string_view coll =
            hasCollective(s.kind)
                ? checkedName(kCollectiveNames, s.collective, "collective", context)
                : std::string_view();
        const std::int64_t start = toNs(s.start_us), issue = toNs(s.issue_us);
        // How many of the optional elements (unit ... issue_ns) this span needs.
        const int optional = issue != start  ? 6
                             : s.seq != -1   ? 5
                             : s.bytes != 0  ? 4
                             : !coll.empty() ? 3
                             : s.micro != -1 ? 2
                             : s.unit != -1  ? 1
                                             : 0;
        out += out.size() > 1 ? ",[" : "[";
        out += std::to_string(s.rank);
        appendName(out, kind);
        appendInt(out, start);
        appendInt(out, toNs(s.end_us));
        if (optional >= 1)
            appendInt(out, s.unit);
        if (optional >= 2)
            appendInt(out, s.micro);
        if (optional >= 3) {
            if (coll.empty())
                out += ",null";
            else
                appendName(out, coll);
        }
        if (optional >= 4)
            appendInt(out, s.bytes);
        if (optional >= 5)
            appendInt(out, s.seq);
        if (optional >= 6)
            appendInt(out, issue);
        out += ']';
    }
    out += ']';
    return out;
}

// [[rank, category, t_ns, bytes], ...]
std::string memoryJson(const StepTimeline& tl, const std::string& context) {
    std::string out = "[";
    out.reserve(40 * tl.memory.size() + 2);
    for (const TimelineMemory& m : tl.memory) {
        checkRank(m.rank, tl.world, context);
        out += out.size() > 1 ? ",[" : "[";
        out += std::to_string(m.rank);
        appendName(out, checkedName(kMemCategoryNames, m.category, "category", context));
        appendInt(out, toNs(m.t_us));
        appendInt(out, m.bytes);
        out += ']';
    }
    out += ']';
    return out;
}

template <typename E>
E parsedName(std::optional<E> v, const std::string& name, const char* what,
             const std::string& context) {
    if (!v)
        throw StoreError(context + ": unknown " + what + " '" + name + "' in the store");
    return *v;
}

} // namespace

void insertTimelineRows(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl) {
    const std::string context = db.path() + ": run " + std::to_string(run_id) +
                                ", timeline of step " + std::to_string(tl.step);
    if (tl.world < 1)
        throw StoreError(context + ": world " + std::to_string(tl.world) + " is not positive");
    auto ins = db.cached(
        "INSERT INTO timelines (run_id, step, world, spans, memory) VALUES (?1, ?2, ?3, ?4, ?5)");
    ins->bind(1, run_id).bind(2, static_cast<std::int64_t>(tl.step)).bind(3, tl.world);
    ins->bind(4, spansJson(tl, context)).bind(5, memoryJson(tl, context));
    ins->run();
}

std::vector<long long> timelineStepRows(SqliteDb& db, std::int64_t run_id) {
    auto q = db.cached("SELECT step FROM timelines WHERE run_id = ?1 ORDER BY step");
    q->bind(1, run_id);
    std::vector<long long> steps;
    while (q->step())
        steps.push_back(q->int64(0));
    return steps;
}

std::optional<StepTimeline> timelineRows(SqliteDb& db, std::int64_t run_id, long long step) {
    const std::string context = db.path() + ": run " + std::to_string(run_id) +
                                ", timeline of step " + std::to_string(step);
    StepTimeline tl;
    tl.step = step;
    {
        // The store is untrusted (an older build, another tool, a hand edit): a timeline's
        // world is one its run ran at, which sizes what readers draw and export per rank.
        auto q = db.cached("SELECT t.world, max(r.world, coalesce((SELECT max(g.world) FROM "
                           "segments g WHERE g.run_id = t.run_id), 1)) FROM timelines t JOIN "
                           "runs r ON r.id = t.run_id WHERE t.run_id = ?1 AND t.step = ?2");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        if (!q->step())
            return std::nullopt;
        const std::int64_t world = q->int64(0);
        const std::int64_t runWorld = q->int64(1);
        if (world < 1 || world > runWorld)
            throw StoreError(context + ": table timelines: world " + std::to_string(world) +
                             " is not one the run ran at (1.." + std::to_string(runWorld) + ")");
        tl.world = static_cast<int>(world);
    }
    {
        // A missing trailing element takes its default (spansJson).
        auto q = db.cached(
            "SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3, "
            "coalesce(j.value->>4, -1), coalesce(j.value->>5, -1), j.value->>6, "
            "coalesce(j.value->>7, 0), coalesce(j.value->>8, -1), "
            "coalesce(j.value->>9, j.value->>2) FROM timelines t, json_each(t.spans) j "
            "WHERE t.run_id = ?1 AND t.step = ?2 ORDER BY j.value->>0, j.value->>2, j.key");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        while (q->step()) {
            TimelineSpan s;
            s.rank = storedRank(q->int64(0), tl.world, "spans", context);
            s.kind = parsedName(spanKindFromName(q->text(1)), q->text(1), "span kind", context);
            s.start_us = toUs(q->int64(2));
            s.end_us = toUs(q->int64(3));
            s.unit = q->int32(4);
            s.micro = q->int32(5);
            if (!q->isNull(6))
                s.collective =
                    parsedName(collectiveFromName(q->text(6)), q->text(6), "collective", context);
            s.bytes = q->int64(7);
            s.seq = q->int32(8);
            s.issue_us = toUs(q->int64(9));
            tl.spans.push_back(s);
        }
    }
    {
        auto q = db.cached("SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3 "
                           "FROM timelines t, json_each(t.memory) j "
                           "WHERE t.run_id = ?1 AND t.step = ?2 "
                           "ORDER BY j.value->>0, j.value->>2, j.key");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        while (q->step())
            tl.memory.push_back(
                {storedRank(q->int64(0), tl.world, "memory", context), toUs(q->int64(2)),
                 parsedName(memCategoryFromName(q->text(1)), q->text(1), "category", context),
                 q->int64(3)});
    }
    return tl;
}

} // namespace zerolab
