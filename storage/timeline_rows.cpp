// Timeline rows: a rank's spans as one JSON text (written here, read back through SQLite's
// json_each), kinds and collectives by their names (kSpanKindNames, kCollectiveNames),
// times as integer nanoseconds; memory samples as one row per rank and moment with a
// column per ledger category (kMemCategoryNames), in multi-row INSERTs.
#include "storage/timeline_rows.h"

#include "storage/sqlite_db.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

namespace zerolab {

namespace {

// Rows per INSERT statement: one statement step per chunk instead of one per row.
constexpr std::size_t kRowsPerInsert = 64;
constexpr int kSpanParams = 4;
constexpr int kMemoryParams = 5 + static_cast<int>(kMemCategoryCount);

std::string multiRowInsert(const char* head, int params, std::size_t rows) {
    std::string sql = head;
    for (std::size_t r = 0; r < rows; ++r) {
        sql += r ? ", (" : " VALUES (";
        for (int c = 0; c < params; ++c)
            sql += c ? ", ?" : "?";
        sql += ")";
    }
    return sql;
}

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

// Times are stored to the nanosecond; ns / 1e3 is what the recorder computes, so its
// values come back bit for bit.
std::int64_t toNs(double us) {
    return std::llround(us * 1e3);
}
double toUs(std::int64_t ns) {
    return static_cast<double>(ns) / 1e3;
}

void appendInt(std::string& out, long long v) {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out.append(buf, end);
}

// [{"kind":"forward","unit":1,"micro":0,"collective":null,"bytes":0,"seq":-1,
//   "issue_ns":...,"start_ns":...,"end_ns":...}, ...] for the spans of one rank.
void appendSpanJson(std::string& out, const TimelineSpan& s, const std::string& context) {
    out += out.size() > 1 ? ",{\"kind\":\"" : "{\"kind\":\"";
    out += checkedName(kSpanKindNames, s.kind, "span kind", context);
    out += "\",\"unit\":";
    appendInt(out, s.unit);
    out += ",\"micro\":";
    appendInt(out, s.micro);
    out += ",\"collective\":";
    if (hasCollective(s.kind)) {
        out += '"';
        out += checkedName(kCollectiveNames, s.collective, "collective", context);
        out += '"';
    } else {
        out += "null";
    }
    out += ",\"bytes\":";
    appendInt(out, s.bytes);
    out += ",\"seq\":";
    appendInt(out, s.seq);
    out += ",\"issue_ns\":";
    appendInt(out, toNs(s.issue_us));
    out += ",\"start_ns\":";
    appendInt(out, toNs(s.start_us));
    out += ",\"end_ns\":";
    appendInt(out, toNs(s.end_us));
    out += '}';
}

// One row per rank that has spans, in multi-row INSERTs.
void insertSpans(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl,
                 const std::string& context) {
    std::vector<std::string> perRank(static_cast<std::size_t>(tl.world), "[");
    for (const TimelineSpan& s : tl.spans) {
        checkRank(s.rank, tl.world, context);
        appendSpanJson(perRank[static_cast<std::size_t>(s.rank)], s, context);
    }
    std::vector<int> ranks;
    for (int r = 0; r < tl.world; ++r)
        if (perRank[static_cast<std::size_t>(r)].size() > 1) {
            perRank[static_cast<std::size_t>(r)] += ']';
            ranks.push_back(r);
        }
    for (std::size_t first = 0; first < ranks.size(); first += kRowsPerInsert) {
        const std::size_t count = std::min(kRowsPerInsert, ranks.size() - first);
        auto ins = db.cached(multiRowInsert(
            "INSERT INTO timeline_spans (run_id, step, rank, spans)", kSpanParams, count));
        int col = 1;
        for (std::size_t i = first; i < first + count; ++i, col += kSpanParams) {
            ins->bind(col, run_id).bind(col + 1, static_cast<std::int64_t>(tl.step));
            ins->bind(col + 2, ranks[i]).bind(col + 3, perRank[static_cast<std::size_t>(ranks[i])]);
        }
        ins->run();
    }
}

// "params, master_params, ..., workspace": timeline_memory's category columns.
std::string memoryColumns() {
    std::string cols;
    for (auto name : kMemCategoryNames)
        cols += (cols.empty() ? "" : ", ") + std::string(name);
    return cols;
}

// One row per (rank, time) of the samples, in the order they first appear.
void insertMemory(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl,
                  const std::string& context) {
    struct Row {
        int rank;
        double t_us;
        std::array<std::optional<long long>, kMemCategoryCount> bytes;
    };
    std::vector<Row> rows;
    for (const TimelineMemory& m : tl.memory) {
        checkRank(m.rank, tl.world, context);
        checkedName(kMemCategoryNames, m.category, "category", context);
        if (rows.empty() || rows.back().rank != m.rank || rows.back().t_us != m.t_us)
            rows.push_back({m.rank, m.t_us, {}});
        rows.back().bytes[static_cast<std::size_t>(m.category)] = m.bytes;
    }
    const std::string head =
        "INSERT INTO timeline_memory (run_id, step, rank, idx, t_us, " + memoryColumns() + ")";
    for (std::size_t first = 0; first < rows.size(); first += kRowsPerInsert) {
        const std::size_t count = std::min(kRowsPerInsert, rows.size() - first);
        auto ins = db.cached(multiRowInsert(head.c_str(), kMemoryParams, count));
        int col = 1;
        for (std::size_t i = first; i < first + count; ++i) {
            const Row& r = rows[i];
            ins->bind(col, run_id).bind(col + 1, static_cast<std::int64_t>(tl.step));
            ins->bind(col + 2, r.rank).bind(col + 3, static_cast<std::int64_t>(i));
            ins->bind(col + 4, r.t_us);
            col += 5;
            for (const auto& b : r.bytes) {
                if (b)
                    ins->bind(col, static_cast<std::int64_t>(*b));
                else
                    ins->bindNull(col);
                ++col;
            }
        }
        ins->run();
    }
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
    auto ins = db.cached("INSERT INTO timelines (run_id, step, world) VALUES (?1, ?2, ?3)");
    ins->bind(1, run_id).bind(2, static_cast<std::int64_t>(tl.step)).bind(3, tl.world);
    ins->run();
    insertSpans(db, run_id, tl, context);
    insertMemory(db, run_id, tl, context);
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
        auto q = db.cached("SELECT world FROM timelines WHERE run_id = ?1 AND step = ?2");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        if (!q->step())
            return std::nullopt;
        tl.world = q->int32(0);
    }
    {
        auto q = db.cached(
            "SELECT s.rank, j.value->>'kind', j.value->>'unit', j.value->>'micro', "
            "j.value->>'collective', j.value->>'bytes', j.value->>'seq', j.value->>'issue_ns', "
            "j.value->>'start_ns', j.value->>'end_ns' FROM timeline_spans s, json_each(s.spans) j "
            "WHERE s.run_id = ?1 AND s.step = ?2 ORDER BY s.rank, j.value->>'start_ns', j.key");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        while (q->step()) {
            TimelineSpan s;
            s.rank = q->int32(0);
            s.kind = parsedName(spanKindFromName(q->text(1)), q->text(1), "span kind", context);
            s.unit = q->int32(2);
            s.micro = q->int32(3);
            if (!q->isNull(4))
                s.collective =
                    parsedName(collectiveFromName(q->text(4)), q->text(4), "collective", context);
            s.bytes = q->int64(5);
            s.seq = q->int32(6);
            s.issue_us = toUs(q->int64(7));
            s.start_us = toUs(q->int64(8));
            s.end_us = toUs(q->int64(9));
            tl.spans.push_back(s);
        }
    }
    {
        auto q = db.cached("SELECT rank, t_us, " + memoryColumns() +
                           " FROM timeline_memory WHERE run_id = ?1 AND step = ?2 "
                           "ORDER BY rank, t_us, idx");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        while (q->step())
            for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                if (!q->isNull(2 + static_cast<int>(c)))
                    tl.memory.push_back({q->int32(0), q->real(1), static_cast<MemCategory>(c),
                                         q->int64(2 + static_cast<int>(c))});
    }
    return tl;
}

} // namespace zerolab
