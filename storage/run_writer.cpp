// RunWriter: prepared statements held for the writer's lifetime; appendStep is one
// BEGIN IMMEDIATE ... COMMIT with the step row, its rank rows and a throttled heartbeat.
#include "storage/run_writer.h"

#include "storage/rank_columns.h"
#include "storage/run_totals.h"
#include "storage/run_uuid.h"
#include "storage/sqlite_db.h"
#include "storage/step_rows.h"
#include "storage/store_clock.h"
#include "storage/timeline_rows.h"

#include <algorithm>
#include <map>

namespace zerolab {

namespace {

// appendStep refreshes the heartbeat at most this often: liveness needs seconds, and
// skipping the runs-row update keeps most step transactions to two table pages.
constexpr double kHeartbeatEveryS = 1.0;

// The writer checkpoints the WAL only every this many pages (40 MiB at 4 KiB pages)
// instead of SQLite's 1000: each checkpoint syncs the file, and at one commit per step
// the default would sync several times a second.
constexpr int kWalAutocheckpointPages = 10000;

// Rank rows go in multi-row INSERTs of up to this many rows: one statement step per
// step instead of one per rank (the per-statement overhead was a tenth of ingest).
constexpr int kRankRowsPerInsert = 64;
constexpr int kRankRowParams = 3 + kRankValueColumnCount; // run_id, step, rank, values

std::string insertRanksSql(int rows) {
    std::string sql =
        "INSERT INTO rank_steps (run_id, step, rank, " + rankValueColumns() + ") VALUES ";
    for (int r = 0; r < rows; ++r) {
        sql += r ? ", (" : "(";
        for (int c = 0; c < kRankRowParams; ++c)
            sql += c ? ", ?" : "?";
        sql += ")";
    }
    return sql;
}

} // namespace

struct RunWriter::Impl {
    explicit Impl(RunStore s)
        : store(std::move(s)), db(store.db()),
          insertStep(db, "INSERT INTO steps (run_id, step, segment, wall_time_s, tokens, loss, lr, "
                         "grad_norm, tokens_per_s, mfu, step_ms, fwd_ms, bwd_ms, optim_ms, "
                         "allreduce_ms, reduce_scatter_ms, allgather_ms, broadcast_ms, exposed_ms, "
                         "comm_bytes, busbw_gbps, " +
                             trafficColumns() +
                             ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                             "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21" +
                             placeholders(22, kCollectiveCount + kLinkColumnCount) + ")"),
          insertBlock(db, insertStepBlockSql()),
          beat(db, "UPDATE runs SET heartbeat_at = ?2 WHERE id = ?1"), begin(db, "BEGIN IMMEDIATE"),
          commit(db, "COMMIT") {
        db.exec("PRAGMA wal_autocheckpoint = " + std::to_string(kWalAutocheckpointPages));
    }

    void requireRun(const char* what) const {
        if (runId == 0)
            throw StoreError(db.path() + ": " + what + " before createRun or attachRun");
    }
    std::string context() const { return db.path() + ": run " + std::to_string(runId); }
    // Writes into a deleted store would succeed and be lost with its last descriptor.
    void checkNotMoved() const {
        if (db.fileMoved())
            throw StoreError(context() +
                                 ": the store file was deleted or replaced while the run was "
                                 "writing to it; nothing written since is kept anywhere",
                             StoreError::Kind::Io);
    }

    RunStore store;
    SqliteDb& db;
    SqliteStatement insertStep;
    // Multi-row rank inserts, by row count (prepared on first use).
    std::map<int, SqliteStatement> insertRanks;
    SqliteStatement& insertRanksOf(int rows) {
        auto it = insertRanks.find(rows);
        if (it == insertRanks.end())
            it = insertRanks.emplace(rows, SqliteStatement(db, insertRanksSql(rows))).first;
        return it->second;
    }
    SqliteStatement insertBlock;
    SqliteStatement beat;
    // The step transaction's BEGIN and COMMIT, prepared once: at ~100k steps the parse
    // of a plain exec() is measurable.
    SqliteStatement begin;
    SqliteStatement commit;
    std::int64_t runId = 0;
    int segment = -1;
    double lastBeat = 0;
    // The step_blocks block of the last appended step (or of the segment's start): it is
    // stored once a step of a later block arrives, so a stored block never changes.
    std::int64_t openBlock = -1;

    // Inside the caller's transaction: the step row, its rank rows, a completed block.
    void insertStepRows(const StepRecord& s);
};

RunWriter::RunWriter(RunStore store) : m_impl(std::make_unique<Impl>(std::move(store))) {}
RunWriter::RunWriter(RunWriter&&) noexcept = default;
RunWriter& RunWriter::operator=(RunWriter&&) noexcept = default;
RunWriter::~RunWriter() = default;

std::int64_t RunWriter::runId() const {
    return m_impl->runId;
}

std::int64_t RunWriter::createRun(const RunInfo& info) {
    SqliteDb& db = m_impl->db;
    const double now = unixNow();
    Transaction tx(db, Transaction::Kind::Write);
    {
        auto ins = db.cached(
            "INSERT INTO runs (name, status, created_at, started_at, heartbeat_at, host, "
            "command_line, pid, world, stage, precision, params, config_json, notes, uuid) "
            "VALUES (?1, 'running', ?2, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
        ins->bind(1, info.name).bind(2, now).bind(3, info.host).bind(4, info.command_line);
        ins->bind(5, info.pid).bind(6, info.world).bind(7, info.stage).bind(8, info.precision);
        ins->bind(9, info.params).bind(10, info.config_json.empty() ? "{}" : info.config_json);
        ins->bind(11, info.notes);
        if (!info.uuid.empty() && !isRunUuid(info.uuid))
            throw StoreError(db.path() + ": createRun: '" + info.uuid + "' is not a run uuid");
        ins->bind(12, info.uuid.empty() ? newRunUuid() : info.uuid);
        ins->run();
    }
    const std::int64_t id = db.lastInsertRowid();
    for (const auto& tag : info.tags) {
        auto t = db.cached("INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
        t->bind(1, id).bind(2, tag);
        t->run();
    }
    tx.commit();
    m_impl->runId = id;
    m_impl->segment = -1;
    m_impl->lastBeat = now;
    return id;
}

std::optional<std::int64_t> RunWriter::findRun(const std::string& uuid) {
    auto q = m_impl->db.cached("SELECT id FROM runs WHERE uuid = ?1");
    q->bind(1, uuid);
    if (!q->step())
        return std::nullopt;
    return q->int64(0);
}

std::string RunWriter::runUuid() {
    m_impl->requireRun("runUuid");
    auto q = m_impl->db.cached("SELECT coalesce(uuid, '') FROM runs WHERE id = ?1");
    q->bind(1, m_impl->runId);
    if (!q->step())
        throw StoreError(m_impl->context() + ": no such run");
    return q->text(0);
}

std::vector<std::string> RunWriter::checkpointPaths(std::int64_t run_id, std::int64_t step) {
    auto q = m_impl->db.cached("SELECT path FROM checkpoints WHERE run_id = ?1 AND step = ?2");
    q->bind(1, run_id).bind(2, step);
    std::vector<std::string> out;
    while (q->step())
        out.push_back(q->text(0));
    return out;
}

void RunWriter::attachRun(std::int64_t run_id) {
    SqliteDb& db = m_impl->db;
    const double now = unixNow();
    auto up = db.cached("UPDATE runs SET status = 'running', ended_at = NULL, end_message = '', "
                        "heartbeat_at = ?2, final_steps = NULL, final_last_loss = NULL, "
                        "final_median_tokens_per_s = NULL WHERE id = ?1");
    up->bind(1, run_id).bind(2, now);
    up->run();
    if (db.changes() == 0)
        throw StoreError(db.path() + ": cannot attach to run " + std::to_string(run_id) +
                         ": no such run");
    m_impl->runId = run_id;
    m_impl->segment = -1;
    m_impl->lastBeat = now;
}

void RunWriter::observeRun(std::int64_t run_id) {
    auto q = m_impl->db.cached("SELECT 1 FROM runs WHERE id = ?1");
    q->bind(1, run_id);
    const bool found = q->step();
    q->reset();
    if (!found)
        throw StoreError(m_impl->db.path() + ": cannot observe run " + std::to_string(run_id) +
                         ": no such run");
    m_impl->runId = run_id;
    m_impl->segment = -1;
}

int RunWriter::beginSegment(const Segment& seg) {
    m_impl->requireRun("beginSegment");
    SqliteDb& db = m_impl->db;
    const std::int64_t run = m_impl->runId;
    Transaction tx(db, Transaction::Kind::Write);
    // A rewind also drops the blocks it reaches into: the block holding start_step is
    // incomplete again and is stored anew once a later block is reached.
    {
        auto del = db.cached("DELETE FROM step_blocks WHERE run_id = ?1 AND block >= ?2");
        del->bind(1, run).bind(2, seg.start_step / kStepBlockSteps);
        del->run();
    }
    for (const char* sql : {"DELETE FROM steps WHERE run_id = ?1 AND step >= ?2",
                            "DELETE FROM checkpoints WHERE run_id = ?1 AND step >= ?2",
                            "DELETE FROM timelines WHERE run_id = ?1 AND step >= ?2"}) {
        auto del = db.cached(sql);
        del->bind(1, run).bind(2, seg.start_step);
        del->run();
    }
    int index = 0;
    {
        auto next = db.cached("SELECT coalesce(max(idx) + 1, 0) FROM segments WHERE run_id = ?1");
        next->bind(1, run);
        next->step();
        index = next->int32(0);
    }
    auto ins =
        db.cached("INSERT INTO segments (run_id, idx, start_step, world, stage, "
                  "grad_accum, micro_batch, reason, started_at, config_json, "
                  "predicted_traffic_bytes, " +
                  predictedColumns() + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11" +
                  placeholders(12, kMemCategoryCount) + ")");
    ins->bind(1, run).bind(2, index).bind(3, seg.start_step).bind(4, seg.world);
    ins->bind(5, seg.stage).bind(6, seg.grad_accum).bind(7, seg.micro_batch);
    ins->bind(8, seg.reason).bind(9, unixNow()).bind(10, seg.config_json);
    ins->bind(11, seg.predicted_traffic_bytes);
    for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
        const int at = 12 + static_cast<int>(c);
        if (seg.predicted)
            ins->bind(at, static_cast<std::int64_t>(seg.predicted->bytes[c]));
        else
            ins->bindNull(at);
    }
    ins->run();
    tx.commit();
    m_impl->segment = index;
    m_impl->openBlock = seg.start_step / kStepBlockSteps;
    return index;
}

void RunWriter::Impl::insertStepRows(const StepRecord& s) {
    SqliteStatement& st = insertStep;
    st.bind(1, runId).bind(2, s.step).bind(3, segment).bind(4, s.wall_time_s);
    st.bind(5, s.tokens).bind(6, s.loss).bind(7, s.lr).bind(8, s.grad_norm);
    st.bind(9, s.tokens_per_s).bind(10, s.mfu).bind(11, s.step_ms).bind(12, s.fwd_ms);
    st.bind(13, s.bwd_ms).bind(14, s.optim_ms).bind(15, s.comm.allreduce_ms);
    st.bind(16, s.comm.reduce_scatter_ms).bind(17, s.comm.allgather_ms);
    st.bind(18, s.comm.broadcast_ms).bind(19, s.comm.exposed_ms).bind(20, s.comm_bytes);
    st.bind(21, s.busbw_gbps);
    for (std::size_t c = 0; c < kCollectiveCount; ++c)
        st.bind(22 + static_cast<int>(c), s.traffic.bytes[c]);
    const auto link = s.traffic.linkColumns();
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        st.bind(22 + static_cast<int>(kCollectiveCount + c), link[c]);
    st.run();
    for (std::size_t first = 0; first < s.ranks.size(); first += kRankRowsPerInsert) {
        const int rows =
            static_cast<int>(std::min<std::size_t>(kRankRowsPerInsert, s.ranks.size() - first));
        SqliteStatement& rk = insertRanksOf(rows);
        for (int i = 0; i < rows; ++i) {
            const RankRecord& r = s.ranks[first + static_cast<std::size_t>(i)];
            int col = i * kRankRowParams + 1;
            rk.bind(col, runId).bind(col + 1, s.step).bind(col + 2, r.rank);
            rk.bind(col + 3, r.host);
            col += 4;
            for (long long bytes : r.mem.bytes)
                rk.bind(col++, static_cast<std::int64_t>(bytes));
            for (std::int64_t v : {r.rss, r.device_used, r.peak})
                rk.bind(col++, v);
            for (double ms : {r.comm.allreduce_ms, r.comm.reduce_scatter_ms, r.comm.allgather_ms,
                              r.comm.broadcast_ms, r.comm.exposed_ms})
                rk.bind(col++, ms);
        }
        rk.run();
    }
    const std::int64_t block = s.step / kStepBlockSteps;
    if (block > openBlock && openBlock >= 0) {
        insertBlock.bind(1, runId).bind(2, openBlock);
        insertBlock.run();
    }
    openBlock = std::max(openBlock, block);
}

void RunWriter::appendStep(const StepRecord& s) {
    appendSteps(std::span<const StepRecord>(&s, 1));
}

void RunWriter::appendSteps(std::span<const StepRecord> steps) {
    Impl& m = *m_impl;
    m.requireRun("appendStep");
    if (m.segment < 0)
        throw StoreError(m.context() + ": appendStep before beginSegment");
    std::int64_t current = steps.empty() ? 0 : steps.front().step;
    const std::int64_t openBlock = m.openBlock;
    try {
        m.begin.run();
        try {
            for (const StepRecord& s : steps) {
                current = s.step;
                m.insertStepRows(s);
            }
            const double now = unixNow();
            if (now - m.lastBeat >= kHeartbeatEveryS) {
                m.checkNotMoved();
                m.beat.bind(1, m.runId).bind(2, now);
                m.beat.run();
                m.lastBeat = now;
            }
            m.commit.run();
        } catch (...) {
            m.insertStep.reset();
            m.insertBlock.reset();
            for (auto& [rows, st] : m.insertRanks)
                st.reset();
            m.db.rollback();
            m.openBlock = openBlock;
            throw;
        }
    } catch (const StoreError& e) {
        throw StoreError(std::string(e.what()) + " (run " + std::to_string(m.runId) + ", step " +
                             std::to_string(current) + ")",
                         e.kind());
    }
}

void RunWriter::appendTimeline(const StepTimeline& timeline) {
    appendTimelines({&timeline, 1});
}

void RunWriter::appendTimelines(std::span<const StepTimeline> timelines) {
    Impl& m = *m_impl;
    m.requireRun("appendTimeline");
    // The step transaction's prepared BEGIN and COMMIT (appendStep): at every step the
    // parse of an exec() showed in the timeline's cost.
    const StepTimeline* current = nullptr;
    try {
        m.begin.run();
        try {
            for (const StepTimeline& tl : timelines) {
                current = &tl;
                insertTimelineRows(m.db, m.runId, tl);
            }
            current = nullptr;
            m.commit.run();
        } catch (...) {
            m.db.rollback();
            throw;
        }
    } catch (const StoreError& e) {
        std::string what = std::string(e.what()) + " (run " + std::to_string(m.runId);
        if (!current && timelines.size() == 1)
            current = &timelines.front();
        if (current)
            what += ", timeline of step " + std::to_string(current->step);
        else if (!timelines.empty())
            what += ", timelines of steps " + std::to_string(timelines.front().step) + "-" +
                    std::to_string(timelines.back().step);
        throw StoreError(what + ")", e.kind());
    }
}

void RunWriter::addEvent(EventLevel level, int rank, const std::string& message) {
    m_impl->requireRun("addEvent");
    auto ins = m_impl->db.cached(
        "INSERT INTO events (run_id, time, level, rank, message) VALUES (?1, ?2, ?3, ?4, ?5)");
    ins->bind(1, m_impl->runId).bind(2, unixNow()).bind(3, eventLevelName(level));
    ins->bind(4, rank).bind(5, message);
    ins->run();
}

void RunWriter::addCheckpoint(const Checkpoint& cp) {
    m_impl->requireRun("addCheckpoint");
    auto ins = m_impl->db.cached("INSERT INTO checkpoints (run_id, step, path, world, stage, "
                                 "time, segment) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    ins->bind(1, m_impl->runId).bind(2, cp.step).bind(3, cp.path).bind(4, cp.world);
    ins->bind(5, cp.stage).bind(6, unixNow()).bind(7, std::max(m_impl->segment, 0));
    ins->run();
}

void RunWriter::heartbeat() {
    m_impl->requireRun("heartbeat");
    m_impl->checkNotMoved();
    const double now = unixNow();
    m_impl->beat.bind(1, m_impl->runId).bind(2, now);
    m_impl->beat.run();
    m_impl->lastBeat = now;
}

void RunWriter::markStalled(const std::string& message) {
    m_impl->requireRun("markStalled");
    auto up = m_impl->db.cached("UPDATE runs SET status = 'stalled', heartbeat_at = ?2, "
                                "end_message = ?3 WHERE id = ?1 AND status = 'running'");
    up->bind(1, m_impl->runId).bind(2, unixNow()).bind(3, message);
    up->run();
}

void RunWriter::markUnstalled() {
    m_impl->requireRun("markUnstalled");
    auto up = m_impl->db.cached("UPDATE runs SET status = 'running', heartbeat_at = ?2, "
                                "end_message = '' WHERE id = ?1 AND status = 'stalled'");
    up->bind(1, m_impl->runId).bind(2, unixNow());
    up->run();
}

void RunWriter::finish(RunStatus status, const std::string& message) {
    m_impl->requireRun("finish");
    if (status == RunStatus::Running)
        throw StoreError(m_impl->context() + ": finish needs an end status, not running");
    SqliteDb& db = m_impl->db;
    const double now = unixNow();
    Transaction tx(db, Transaction::Kind::Write);
    {
        auto up = db.cached("UPDATE runs SET status = ?2, ended_at = ?3, heartbeat_at = ?3, "
                            "end_message = ?4 WHERE id = ?1");
        up->bind(1, m_impl->runId).bind(2, runStatusName(status)).bind(3, now).bind(4, message);
        up->run();
    }
    cacheRunTotals(db, m_impl->runId, computeRunTotals(db, m_impl->runId));
    tx.commit();
}

std::vector<Command> RunWriter::pendingCommands() {
    m_impl->requireRun("pendingCommands");
    auto q = m_impl->db.cached("SELECT id, kind, arg, created_at FROM commands "
                               "WHERE run_id = ?1 AND acked_at IS NULL ORDER BY id");
    q->bind(1, m_impl->runId);
    std::vector<Command> out;
    while (q->step()) {
        Command c;
        c.id = q->int64(0);
        c.run_id = m_impl->runId;
        const std::string kind = q->text(1);
        const auto k = commandKindFromName(kind);
        if (!k)
            throw StoreError(m_impl->context() + ": command " + std::to_string(c.id) +
                             " has unknown kind '" + kind + "'");
        c.kind = *k;
        c.arg = q->real(2);
        c.created_at = q->real(3);
        out.push_back(std::move(c));
    }
    return out;
}

void RunWriter::ackCommand(std::int64_t command_id, const std::string& message) {
    m_impl->requireRun("ackCommand");
    auto up = m_impl->db.cached("UPDATE commands SET acked_at = ?3, ack_message = ?4 "
                                "WHERE id = ?1 AND run_id = ?2 AND acked_at IS NULL");
    up->bind(1, command_id).bind(2, m_impl->runId).bind(3, unixNow()).bind(4, message);
    up->run();
    if (m_impl->db.changes() == 0)
        throw StoreError(m_impl->context() + ": no pending command " + std::to_string(command_id));
}

} // namespace zerolab
