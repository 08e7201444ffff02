// RunReader: snapshot reads (one statement, or one read transaction for several) and
// the few writes the GUI and CLI make. Unknown run ids raise StoreError.
#include "storage/run_reader.h"

#include "storage/rank_columns.h"
#include "storage/run_totals.h"
#include "storage/sqlite_db.h"
#include "storage/step_rows.h"
#include "storage/store_clock.h"
#include "storage/timeline_rows.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <map>
#include <unistd.h>

namespace zerolab {

namespace {

std::string thisHost() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0)
        return {};
    return buf;
}

bool pidAlive(std::int64_t pid) {
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

template <typename E>
E parseName(SqliteDb& db, std::optional<E> v, const std::string& name, const char* what) {
    if (!v)
        throw StoreError(db.path() + ": unknown " + what + " '" + name + "' in the store");
    return *v;
}

RankRecord readRank(const SqliteStatement& q, int first) {
    RankRecord r;
    int col = first;
    r.host = q.text(col++);
    for (auto& bytes : r.mem.bytes)
        bytes = q.int64(col++);
    r.rss = q.int64(col++);
    r.device_used = q.int64(col++);
    r.peak = q.int64(col++);
    r.comm.allreduce_ms = q.real(col++);
    r.comm.reduce_scatter_ms = q.real(col++);
    r.comm.allgather_ms = q.real(col++);
    r.comm.broadcast_ms = q.real(col++);
    r.comm.exposed_ms = q.real(col++);
    return r;
}

} // namespace

struct RunReader::Impl {
    explicit Impl(RunStore s) : store(std::move(s)), db(store.db()) {}

    std::string runContext(std::int64_t id) const {
        return db.path() + ": run " + std::to_string(id);
    }

    void requireRun(std::int64_t id) {
        auto q = db.cached("SELECT 1 FROM runs WHERE id = ?1");
        q->bind(1, id);
        if (!q->step())
            throw StoreError(runContext(id) + ": no such run");
    }

    // The rows of one run's query in a read transaction: checks the run exists, binds
    // run_id to ?1 and `more` to ?2, ?3, ..., and maps each row with `row`.
    template <typename Row, typename... More>
    auto runRows(std::int64_t run_id, const std::string& sql, Row row, More... more) {
        Transaction tx(db, Transaction::Kind::Read);
        requireRun(run_id);
        auto q = db.cached(sql);
        q->bind(1, run_id);
        int index = 2;
        (q->bind(index++, more), ...);
        std::vector<decltype(row(*q))> out;
        while (q->step())
            out.push_back(row(*q));
        q->reset();
        tx.commit();
        return out;
    }

    std::map<std::int64_t, std::vector<std::string>> tags(std::int64_t only = 0) {
        auto q = db.cached("SELECT run_id, tag FROM run_tags WHERE ?1 = 0 OR run_id = ?1 "
                           "ORDER BY run_id, tag");
        q->bind(1, only);
        std::map<std::int64_t, std::vector<std::string>> out;
        while (q->step())
            out[q->int64(0)].push_back(q->text(1));
        return out;
    }

    // Summaries of every run (only = 0) or of one; call inside a read transaction.
    std::vector<RunSummary> summaries(std::int64_t only) {
        auto tagMap = tags(only);
        std::vector<RunSummary> out;
        auto q = db.cached(
            "SELECT id, name, status, stage, world, created_at, started_at, ended_at, "
            "heartbeat_at, notes, host, final_steps, final_last_loss, final_median_tokens_per_s, "
            "(SELECT micro_batch FROM segments WHERE run_id = runs.id ORDER BY idx DESC LIMIT 1), "
            "(SELECT grad_accum FROM segments WHERE run_id = runs.id ORDER BY idx DESC LIMIT 1), "
            "CASE WHEN json_valid(config_json) THEN CASE WHEN json_type(config_json, "
            "'$.run.steps') = 'integer' THEN json_extract(config_json, '$.run.steps') END END "
            "FROM runs WHERE ?1 = 0 OR id = ?1 ORDER BY id DESC");
        q->bind(1, only);
        while (q->step()) {
            RunSummary s;
            s.id = q->int64(0);
            s.name = q->text(1);
            const std::string status = q->text(2);
            s.status = parseName(db, runStatusFromName(status), status, "run status");
            s.stage = q->int32(3);
            s.world = q->int32(4);
            s.created_at = q->real(5);
            s.started_at = q->real(6);
            s.ended_at = q->real(7);
            const double lastSign = std::isnan(s.ended_at) ? q->real(8) : s.ended_at;
            s.duration_s = lastSign - s.started_at;
            s.notes = q->text(9);
            s.host = q->text(10);
            if (!q->isNull(11)) {
                s.steps = q->int64(11);
                s.last_loss = q->real(12);
                s.median_tokens_per_s = q->real(13);
            } else {
                // Marked by the step rows below: a running, or a migrated, run.
                s.steps = -2;
            }
            if (!q->isNull(14)) {
                s.micro_batch = q->int32(14);
                s.grad_accum = q->int32(15);
            }
            if (!q->isNull(16))
                s.planned_steps = q->int64(16);
            if (auto it = tagMap.find(s.id); it != tagMap.end())
                s.tags = it->second;
            out.push_back(std::move(s));
        }
        q->reset();
        for (auto& s : out)
            if (s.steps == -2) {
                const RunTotals t = computeRunTotals(db, s.id);
                s.steps = t.last_step;
                s.last_loss = t.last_loss;
                s.median_tokens_per_s = t.median_tokens_per_s;
            }
        return out;
    }

    RunStore store;
    SqliteDb& db;
};

RunReader::RunReader(RunStore store) : m_impl(std::make_unique<Impl>(std::move(store))) {}
RunReader::RunReader(RunReader&&) noexcept = default;
RunReader& RunReader::operator=(RunReader&&) noexcept = default;
RunReader::~RunReader() = default;

std::vector<RunSummary> RunReader::listRuns() {
    Transaction tx(m_impl->db, Transaction::Kind::Read);
    auto out = m_impl->summaries(0);
    tx.commit();
    return out;
}

RunSummary RunReader::summary(std::int64_t run_id) {
    Transaction tx(m_impl->db, Transaction::Kind::Read);
    auto out = m_impl->summaries(run_id);
    tx.commit();
    if (out.empty() || run_id <= 0)
        throw StoreError(m_impl->runContext(run_id) + ": no such run");
    return out.front();
}

RunRecord RunReader::run(std::int64_t run_id) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Read);
    RunRecord r;
    {
        auto q = db.cached("SELECT name, host, command_line, pid, world, stage, precision, params, "
                           "config_json, notes, status, created_at, started_at, ended_at, "
                           "heartbeat_at, end_message, coalesce(uuid, '') FROM runs WHERE id = ?1");
        q->bind(1, run_id);
        if (!q->step())
            throw StoreError(m_impl->runContext(run_id) + ": no such run");
        r.id = run_id;
        r.info.name = q->text(0);
        r.info.host = q->text(1);
        r.info.command_line = q->text(2);
        r.info.pid = q->int64(3);
        r.info.world = q->int32(4);
        r.info.stage = q->int32(5);
        r.info.precision = q->text(6);
        r.info.params = q->int64(7);
        r.info.config_json = q->text(8);
        r.info.notes = q->text(9);
        const std::string status = q->text(10);
        r.status = parseName(db, runStatusFromName(status), status, "run status");
        r.created_at = q->real(11);
        r.started_at = q->real(12);
        r.ended_at = q->real(13);
        r.heartbeat_at = q->real(14);
        r.end_message = q->text(15);
        r.info.uuid = q->text(16);
    }
    auto t = m_impl->tags(run_id);
    if (auto it = t.find(run_id); it != t.end())
        r.info.tags = it->second;
    tx.commit();
    return r;
}

std::optional<std::int64_t> RunReader::resolveRun(const std::string& id_or_name) {
    SqliteDb& db = m_impl->db;
    const bool numeric = !id_or_name.empty() && id_or_name.size() < 19 &&
                         id_or_name.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
        auto q = db.cached("SELECT id FROM runs WHERE id = ?1");
        q->bind(1, static_cast<std::int64_t>(std::stoll(id_or_name)));
        if (q->step())
            return q->int64(0);
    }
    auto q = db.cached("SELECT id FROM runs WHERE name = ?1 ORDER BY id");
    q->bind(1, id_or_name);
    std::vector<std::int64_t> ids;
    while (q->step())
        ids.push_back(q->int64(0));
    if (ids.empty())
        return std::nullopt;
    if (ids.size() > 1) {
        std::string list;
        for (auto id : ids)
            list += (list.empty() ? "" : ", ") + std::to_string(id);
        throw StoreError(db.path() + ": run name '" + id_or_name + "' matches runs " + list +
                         "; use an id");
    }
    return ids.front();
}

std::vector<Segment> RunReader::segments(std::int64_t run_id) {
    return m_impl->runRows(run_id,
                           "SELECT idx, start_step, world, stage, grad_accum, micro_batch, reason, "
                           "config_json, predicted_traffic_bytes, " +
                               predictedColumns() + " FROM segments WHERE run_id = ?1 ORDER BY idx",
                           [](const SqliteStatement& q) {
                               Segment s;
                               s.index = q.int32(0);
                               s.start_step = q.int64(1);
                               s.world = q.int32(2);
                               s.stage = q.int32(3);
                               s.grad_accum = q.int32(4);
                               s.micro_batch = q.int32(5);
                               s.reason = q.text(6);
                               s.config_json = q.text(7);
                               s.predicted_traffic_bytes = q.real(8);
                               if (!q.isNull(9)) {
                                   MemBreakdown m;
                                   for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                                       m.bytes[c] = q.int64(9 + static_cast<int>(c));
                                   s.predicted = m;
                               }
                               return s;
                           });
}

std::optional<std::int64_t> RunReader::lastStepOfSegment(std::int64_t run_id, int segment) {
    const auto rows = m_impl->runRows(
        run_id, "SELECT max(step) FROM steps WHERE run_id = ?1 AND segment = ?2",
        [](const SqliteStatement& q) {
            return q.isNull(0) ? std::optional<std::int64_t>() : q.int64(0);
        },
        segment);
    return rows.empty() ? std::nullopt : rows.front();
}

std::vector<StepRecord> RunReader::steps(std::int64_t run_id, std::int64_t after_step,
                                         std::int64_t limit) {
    return m_impl->runRows(
        run_id,
        "SELECT " + stepColumns() +
            " FROM steps WHERE run_id = ?1 AND step > ?2 ORDER BY step LIMIT ?3",
        [](const SqliteStatement& q) { return readStepRow(q, 0); }, after_step, limit);
}

std::optional<std::pair<std::int64_t, std::int64_t>> RunReader::stepSpan(std::int64_t run_id) {
    // Two subqueries: each min() or max() alone is one index seek; together in one
    // SELECT they would scan every step of the run.
    const auto rows =
        m_impl->runRows(run_id,
                        "SELECT (SELECT min(step) FROM steps WHERE run_id = ?1), "
                        "(SELECT max(step) FROM steps WHERE run_id = ?1)",
                        [](const SqliteStatement& q) {
                            return q.isNull(0)
                                       ? std::optional<std::pair<std::int64_t, std::int64_t>>()
                                       : std::make_pair(q.int64(0), q.int64(1));
                        });
    return rows.empty() ? std::nullopt : rows.front();
}

StepLod RunReader::stepsLod(std::int64_t run_id, std::int64_t first_step, std::int64_t last_step,
                            std::int64_t buckets) {
    if (buckets < 1)
        throw StoreError(m_impl->runContext(run_id) +
                         ": a level of detail needs at least one "
                         "bucket, not " +
                         std::to_string(buckets));
    Transaction tx(m_impl->db, Transaction::Kind::Read);
    m_impl->requireRun(run_id);
    StepLod lod = stepLodRows(m_impl->db, run_id, first_step, last_step, buckets);
    tx.commit();
    return lod;
}

std::vector<RankRecord> RunReader::rankRows(std::int64_t run_id, std::int64_t step) {
    return m_impl->runRows(
        run_id,
        "SELECT rank, " + rankValueColumns() +
            " FROM rank_steps WHERE run_id = ?1 AND step = ?2 ORDER BY rank",
        [](const SqliteStatement& q) {
            RankRecord r = readRank(q, 1);
            r.rank = q.int32(0);
            return r;
        },
        step);
}

std::vector<RankSample> RunReader::rankSeries(std::int64_t run_id, std::int64_t after_step,
                                              std::int64_t up_to_step) {
    return m_impl->runRows(
        run_id,
        "SELECT step, rank, " + rankValueColumns() +
            " FROM rank_steps WHERE run_id = ?1 AND step > ?2 AND step <= ?3 ORDER BY step, rank",
        [](const SqliteStatement& q) {
            RankSample s;
            s.step = q.int64(0);
            s.rank = readRank(q, 2);
            s.rank.rank = q.int32(1);
            return s;
        },
        after_step, up_to_step);
}

std::vector<Event> RunReader::events(std::int64_t run_id, std::int64_t after_id) {
    SqliteDb& db = m_impl->db;
    return m_impl->runRows(
        run_id,
        "SELECT id, time, level, rank, message FROM events WHERE run_id = ?1 AND id > ?2 "
        "ORDER BY id",
        [&db](const SqliteStatement& q) {
            Event e;
            e.id = q.int64(0);
            e.time = q.real(1);
            const std::string level = q.text(2);
            e.level = parseName(db, eventLevelFromName(level), level, "event level");
            e.rank = q.int32(3);
            e.message = q.text(4);
            return e;
        },
        after_id);
}

std::vector<Checkpoint> RunReader::checkpoints(std::int64_t run_id) {
    return m_impl->runRows(run_id,
                           "SELECT step, path, world, stage, segment, time FROM checkpoints "
                           "WHERE run_id = ?1 ORDER BY step, id",
                           [](const SqliteStatement& q) {
                               Checkpoint c;
                               c.step = q.int64(0);
                               c.path = q.text(1);
                               c.world = q.int32(2);
                               c.stage = q.int32(3);
                               c.segment = q.int32(4);
                               c.time = q.real(5);
                               return c;
                           });
}

std::vector<Command> RunReader::commands(std::int64_t run_id) {
    SqliteDb& db = m_impl->db;
    return m_impl->runRows(
        run_id,
        "SELECT id, kind, arg, created_at, acked_at, ack_message FROM commands WHERE run_id = ?1 "
        "ORDER BY id",
        [&db, run_id](const SqliteStatement& q) {
            Command c;
            c.id = q.int64(0);
            c.run_id = run_id;
            const std::string kind = q.text(1);
            c.kind = parseName(db, commandKindFromName(kind), kind, "command kind");
            c.arg = q.real(2);
            c.created_at = q.real(3);
            c.acked_at = q.real(4);
            c.ack_message = q.text(5);
            return c;
        });
}

std::vector<long long> RunReader::timelineSteps(std::int64_t run_id) {
    Transaction tx(m_impl->db, Transaction::Kind::Read);
    m_impl->requireRun(run_id);
    auto steps = timelineStepRows(m_impl->db, run_id);
    tx.commit();
    return steps;
}

std::optional<StepTimeline> RunReader::timeline(std::int64_t run_id, long long step) {
    Transaction tx(m_impl->db, Transaction::Kind::Read);
    m_impl->requireRun(run_id);
    auto tl = timelineRows(m_impl->db, run_id, step);
    tx.commit();
    return tl;
}

std::int64_t RunReader::dataVersion() {
    auto q = m_impl->db.cached("PRAGMA data_version");
    if (!q->step())
        throw StoreError(m_impl->db.path() + ": PRAGMA data_version returned no row");
    return q->int64(0);
}

std::int64_t RunReader::postCommand(std::int64_t run_id, CommandKind kind, double arg) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    {
        auto q = db.cached("SELECT status FROM runs WHERE id = ?1");
        q->bind(1, run_id);
        if (!q->step())
            throw StoreError(m_impl->runContext(run_id) + ": no such run");
        if (const std::string status = q->text(0); status != "running" && status != "stalled")
            throw StoreError(m_impl->runContext(run_id) + " is " + status +
                             "; commands go to running runs only");
    }
    auto ins = db.cached("INSERT INTO commands (run_id, kind, arg, created_at) "
                         "VALUES (?1, ?2, ?3, ?4)");
    ins->bind(1, run_id).bind(2, commandKindName(kind)).bind(3, arg).bind(4, unixNow());
    ins->run();
    const std::int64_t id = db.lastInsertRowid();
    tx.commit();
    return id;
}

void RunReader::setNotes(std::int64_t run_id, const std::string& notes) {
    auto up = m_impl->db.cached("UPDATE runs SET notes = ?2 WHERE id = ?1");
    up->bind(1, run_id).bind(2, notes);
    up->run();
    if (m_impl->db.changes() == 0)
        throw StoreError(m_impl->runContext(run_id) + ": no such run");
}

void RunReader::setTags(std::int64_t run_id, const std::vector<std::string>& tags) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    m_impl->requireRun(run_id);
    {
        auto del = db.cached("DELETE FROM run_tags WHERE run_id = ?1");
        del->bind(1, run_id);
        del->run();
    }
    for (const auto& tag : tags) {
        auto ins = db.cached("INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
        ins->bind(1, run_id).bind(2, tag);
        ins->run();
    }
    tx.commit();
}

void RunReader::addTag(std::int64_t run_id, const std::string& tag) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    m_impl->requireRun(run_id);
    auto ins = db.cached("INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
    ins->bind(1, run_id).bind(2, tag);
    ins->run();
    tx.commit();
}

void RunReader::deleteRun(std::int64_t run_id) {
    SqliteDb& db = m_impl->db;
    // One statement, so a run cannot start running between a check and the delete. A
    // stalled run's job is alive too (it may resume or be killed and resumed).
    auto del = db.cached("DELETE FROM runs WHERE id = ?1 AND status NOT IN ('running', 'stalled')");
    del->bind(1, run_id);
    del->run();
    if (db.changes() != 0)
        return;
    auto q = db.cached("SELECT 1 FROM runs WHERE id = ?1");
    q->bind(1, run_id);
    if (!q->step())
        throw StoreError(m_impl->runContext(run_id) + ": no such run");
    throw StoreError(
        m_impl->runContext(run_id) +
        " is running or stalled: refusing to delete it (its job would fail at its next "
        "write); stop it first (Stop in zerolab, or SIGTERM to its mpirun), then "
        "delete it");
}

std::vector<std::int64_t> RunReader::markLostRuns(double stale_after_s) {
    SqliteDb& db = m_impl->db;
    const double cutoff = unixNow() - stale_after_s;
    const std::string host = thisHost();
    Transaction tx(db, Transaction::Kind::Write);
    std::vector<std::int64_t> candidates;
    {
        auto q = db.cached("SELECT id, pid, host FROM runs WHERE status IN ('running', 'stalled') "
                           "AND coalesce(heartbeat_at, started_at, created_at) < ?1 ORDER BY id");
        q->bind(1, cutoff);
        while (q->step()) {
            // A pid can only be checked on its own host; elsewhere staleness decides.
            const bool local = q->text(2) == host;
            if (!(local && pidAlive(q->int64(1))))
                candidates.push_back(q->int64(0));
        }
    }
    for (auto id : candidates) {
        auto up = db.cached("UPDATE runs SET status = 'lost', "
                            "ended_at = coalesce(heartbeat_at, started_at, created_at), "
                            "end_message = 'no heartbeat and no process: marked lost' "
                            "WHERE id = ?1");
        up->bind(1, id);
        up->run();
        cacheRunTotals(db, id, computeRunTotals(db, id));
    }
    tx.commit();
    return candidates;
}

std::optional<double> RunReader::heartbeatSilence(std::int64_t run_id, double now) {
    auto q = m_impl->db.cached(
        "SELECT heartbeat_at, CASE WHEN json_valid(config_json) THEN "
        "json_extract(config_json, '$.run.collective_timeout_s') END FROM runs WHERE id = ?1 "
        "AND status IN ('running', 'stalled')");
    q->bind(1, run_id);
    if (!q->step() || q->isNull(0))
        return std::nullopt;
    const double beat = q->real(0);
    const double configured = q->isNull(1) ? 0 : q->real(1);
    const double timeout =
        std::isfinite(configured) && configured > 0 ? configured : kDefaultSilenceS;
    const double silent = now - beat;
    if (!std::isfinite(silent) || silent <= timeout)
        return std::nullopt;
    return silent;
}

} // namespace zerolab
