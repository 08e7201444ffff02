// Timeline rows: multi-row INSERTs prepared once per row count (a sampled step of a
// 64-rank run holds thousands of spans), names from kSpanKindNames, kCollectiveNames and
// kMemCategoryNames, so the store's text columns follow the C++ enums.
#include "storage/timeline_rows.h"

#include "storage/sqlite_db.h"

#include <algorithm>
#include <cstddef>
#include <string>

namespace zerolab {

namespace {

// Rows per INSERT statement: one statement step per chunk instead of one per row.
constexpr std::size_t kRowsPerInsert = 64;
constexpr int kSpanParams = 13;
constexpr int kMemoryParams = 7;

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

void insertSpans(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl,
                 const std::string& context) {
    const auto& spans = tl.spans;
    for (std::size_t first = 0; first < spans.size(); first += kRowsPerInsert) {
        const std::size_t rows = std::min(kRowsPerInsert, spans.size() - first);
        auto ins = db.cached(multiRowInsert("INSERT INTO timeline_spans (run_id, step, rank, idx, "
                                            "kind, unit, micro, collective, bytes, seq, issue_us, "
                                            "start_us, end_us)",
                                            kSpanParams, rows));
        int col = 1;
        for (std::size_t i = first; i < first + rows; ++i) {
            const TimelineSpan& s = spans[i];
            checkRank(s.rank, tl.world, context);
            ins->bind(col, run_id).bind(col + 1, static_cast<std::int64_t>(tl.step));
            ins->bind(col + 2, s.rank).bind(col + 3, static_cast<std::int64_t>(i));
            ins->bind(col + 4, checkedName(kSpanKindNames, s.kind, "span kind", context));
            ins->bind(col + 5, s.unit).bind(col + 6, s.micro);
            if (hasCollective(s.kind))
                ins->bind(col + 7,
                          checkedName(kCollectiveNames, s.collective, "collective", context));
            else
                ins->bindNull(col + 7);
            ins->bind(col + 8, static_cast<std::int64_t>(s.bytes)).bind(col + 9, s.seq);
            ins->bind(col + 10, s.issue_us).bind(col + 11, s.start_us).bind(col + 12, s.end_us);
            col += kSpanParams;
        }
        ins->run();
    }
}

void insertMemory(SqliteDb& db, std::int64_t run_id, const StepTimeline& tl,
                  const std::string& context) {
    const auto& mem = tl.memory;
    for (std::size_t first = 0; first < mem.size(); first += kRowsPerInsert) {
        const std::size_t rows = std::min(kRowsPerInsert, mem.size() - first);
        auto ins = db.cached(multiRowInsert("INSERT INTO timeline_memory (run_id, step, rank, idx, "
                                            "t_us, category, bytes)",
                                            kMemoryParams, rows));
        int col = 1;
        for (std::size_t i = first; i < first + rows; ++i) {
            const TimelineMemory& m = mem[i];
            checkRank(m.rank, tl.world, context);
            ins->bind(col, run_id).bind(col + 1, static_cast<std::int64_t>(tl.step));
            ins->bind(col + 2, m.rank).bind(col + 3, static_cast<std::int64_t>(i));
            ins->bind(col + 4, m.t_us);
            ins->bind(col + 5, checkedName(kMemCategoryNames, m.category, "category", context));
            ins->bind(col + 6, static_cast<std::int64_t>(m.bytes));
            col += kMemoryParams;
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
        auto q = db.cached("SELECT rank, kind, unit, micro, collective, bytes, seq, issue_us, "
                           "start_us, end_us FROM timeline_spans WHERE run_id = ?1 AND step = ?2 "
                           "ORDER BY rank, start_us, idx");
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
            s.issue_us = q->real(7);
            s.start_us = q->real(8);
            s.end_us = q->real(9);
            tl.spans.push_back(s);
        }
    }
    {
        auto q = db.cached("SELECT rank, t_us, category, bytes FROM timeline_memory "
                           "WHERE run_id = ?1 AND step = ?2 ORDER BY rank, t_us, idx");
        q->bind(1, run_id).bind(2, static_cast<std::int64_t>(step));
        while (q->step()) {
            TimelineMemory m;
            m.rank = q->int32(0);
            m.t_us = q->real(1);
            m.category =
                parsedName(memCategoryFromName(q->text(2)), q->text(2), "category", context);
            m.bytes = q->int64(3);
            tl.memory.push_back(m);
        }
    }
    return tl;
}

} // namespace zerolab
