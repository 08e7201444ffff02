// SweepStore over the sweeps and sweep_trials tables (migrate_v5.sql).
#include "storage/sweep_store.h"

#include "storage/sqlite_db.h"
#include "storage/store_clock.h"

#include <array>
#include <cmath>

namespace zerolab {

namespace {

constexpr std::array<std::string_view, 4> kSweepStatusNames = {"running", "finished", "stopped",
                                                               "failed"};
constexpr std::array<std::string_view, 9> kTrialStatusNames = {
    "pending", "running", "finished", "failed", "timeout", "oom", "pruned", "invalid", "skipped"};

template <class E, std::size_t N>
std::optional<E> fromName(const std::array<std::string_view, N>& names, std::string_view name) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name)
            return static_cast<E>(i);
    return std::nullopt;
}

void bindOptional(SqliteStatement& s, int index, std::int64_t v) {
    if (v < 0)
        s.bindNull(index);
    else
        s.bind(index, v);
}

std::int64_t intOr(const SqliteStatement& s, int col) {
    return s.isNull(col) ? -1 : s.int64(col);
}

// Binds a trial to ?1 (sweep_id), ?2 (idx) and ?3 to ?19 in the order of the columns
// after idx in kTrialColumns: for the INSERT of addTrials and the UPDATE of updateTrial.
void bindTrial(SqliteStatement& s, std::int64_t sweep_id, const TrialRecord& t) {
    s.bind(1, sweep_id).bind(2, t.idx).bind(3, t.phase);
    if (t.repeat_of < 0)
        s.bindNull(4);
    else
        s.bind(4, t.repeat_of);
    s.bind(5, t.axes_json).bind(6, t.config_json).bind(7, t.world);
    s.bind(8, trialStatusName(t.status)).bind(9, t.reason);
    bindOptional(s, 10, t.forecast_bytes);
    bindOptional(s, 11, t.capacity_bytes);
    bindOptional(s, 12, t.run_id);
    bindOptional(s, 13, t.pid);
    s.bind(14, t.tokens_per_s).bind(15, t.spread_tokens_per_s);
    bindOptional(s, 16, t.peak_bytes);
    s.bind(17, t.exposed_ms).bind(18, t.started_at).bind(19, t.ended_at);
}

constexpr std::string_view kTrialColumns =
    "idx, phase, repeat_of, axes, config, world, status, reason, forecast_bytes, "
    "capacity_bytes, run_id, pid, tokens_per_s, spread_tokens_per_s, peak_bytes, exposed_ms, "
    "started_at, ended_at";

} // namespace

std::string_view sweepStatusName(SweepStatus s) {
    return kSweepStatusNames[static_cast<std::size_t>(s)];
}
std::string_view trialStatusName(TrialStatus s) {
    return kTrialStatusNames[static_cast<std::size_t>(s)];
}
std::optional<SweepStatus> sweepStatusFromName(std::string_view name) {
    return fromName<SweepStatus>(kSweepStatusNames, name);
}
std::optional<TrialStatus> trialStatusFromName(std::string_view name) {
    return fromName<TrialStatus>(kTrialStatusNames, name);
}
bool trialRan(TrialStatus s) {
    return s == TrialStatus::Finished || s == TrialStatus::Failed || s == TrialStatus::Timeout ||
           s == TrialStatus::Oom;
}

struct SweepStore::Impl {
    RunStore store;
    SqliteDb& db;
    explicit Impl(RunStore s) : store(std::move(s)), db(store.db()) {}

    std::string context(std::int64_t sweep_id) const {
        return db.path() + ": sweep " + std::to_string(sweep_id);
    }
    void requireSweep(std::int64_t sweep_id) {
        auto q = db.cached("SELECT 1 FROM sweeps WHERE id = ?1");
        q->bind(1, sweep_id);
        if (!q->step())
            throw StoreError(context(sweep_id) + ": no such sweep");
    }
    // Appends trials after the sweep's last, every field as given (within the caller's
    // write transaction); sets their idx.
    void insertTrials(std::int64_t sweep_id, std::vector<TrialRecord>& trials) {
        std::int64_t next = 0;
        {
            auto q =
                db.cached("SELECT coalesce(max(idx) + 1, 0) FROM sweep_trials WHERE sweep_id = ?1");
            q->bind(1, sweep_id);
            q->step();
            next = q->int64(0);
        }
        for (TrialRecord& t : trials) {
            t.idx = static_cast<int>(next++);
            auto ins = db.cached(
                "INSERT INTO sweep_trials (sweep_id, idx, phase, repeat_of, axes, config, world, "
                "status, reason, forecast_bytes, capacity_bytes, run_id, pid, tokens_per_s, "
                "spread_tokens_per_s, peak_bytes, exposed_ms, started_at, ended_at) VALUES (?1, "
                "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
                "?19)");
            bindTrial(*ins, sweep_id, t);
            ins->run();
        }
    }
    SweepRecord readSweep(const SqliteStatement& q) const {
        SweepRecord r;
        r.id = q.int64(0);
        r.name = q.text(1);
        r.source = q.text(2);
        r.definition = q.text(3);
        const std::string status = q.text(4);
        const auto s = sweepStatusFromName(status);
        if (!s)
            throw StoreError(context(r.id) + ": unknown status '" + status + "'");
        r.status = *s;
        r.created_at = q.real(5);
        r.ended_at = q.real(6);
        r.message = q.text(7);
        return r;
    }
};

SweepStore::SweepStore(RunStore store) : m_impl(std::make_unique<Impl>(std::move(store))) {}
SweepStore::SweepStore(SweepStore&&) noexcept = default;
SweepStore& SweepStore::operator=(SweepStore&&) noexcept = default;
SweepStore::~SweepStore() = default;

RunStore& SweepStore::store() {
    return m_impl->store;
}

std::int64_t SweepStore::createSweep(const SweepRecord& sweep, std::vector<TrialRecord> trials) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    auto ins = db.cached("INSERT INTO sweeps (name, source, definition, status, created_at) "
                         "VALUES (?1, ?2, ?3, 'running', ?4)");
    ins->bind(1, sweep.name).bind(2, sweep.source).bind(3, sweep.definition).bind(4, unixNow());
    ins->run();
    const std::int64_t id = db.lastInsertRowid();
    m_impl->insertTrials(id, trials);
    tx.commit();
    return id;
}

std::vector<SweepRecord> SweepStore::listSweeps() {
    auto q = m_impl->db.cached("SELECT id, name, source, definition, status, created_at, "
                               "ended_at, message FROM sweeps ORDER BY id DESC");
    std::vector<SweepRecord> out;
    while (q->step())
        out.push_back(m_impl->readSweep(*q));
    return out;
}

SweepRecord SweepStore::sweep(std::int64_t sweep_id) {
    auto q = m_impl->db.cached("SELECT id, name, source, definition, status, created_at, "
                               "ended_at, message FROM sweeps WHERE id = ?1");
    q->bind(1, sweep_id);
    if (!q->step())
        throw StoreError(m_impl->context(sweep_id) + ": no such sweep");
    return m_impl->readSweep(*q);
}

void SweepStore::setSweepStatus(std::int64_t sweep_id, SweepStatus status,
                                const std::string& message) {
    auto up = m_impl->db.cached("UPDATE sweeps SET status = ?2, message = ?3, ended_at = ?4 "
                                "WHERE id = ?1");
    up->bind(1, sweep_id).bind(2, sweepStatusName(status)).bind(3, message);
    if (status == SweepStatus::Running)
        up->bindNull(4);
    else
        up->bind(4, unixNow());
    up->run();
    if (m_impl->db.changes() == 0)
        throw StoreError(m_impl->context(sweep_id) + ": no such sweep");
}

std::optional<SweepDriver> SweepStore::driver(std::int64_t sweep_id) {
    m_impl->requireSweep(sweep_id);
    auto q = m_impl->db.cached(
        "SELECT driver_pid, driver_host, driver_heartbeat_at FROM sweeps WHERE id = ?1");
    q->bind(1, sweep_id);
    if (!q->step() || q->isNull(0))
        return std::nullopt;
    return SweepDriver{q->int64(0), q->isNull(1) ? std::string() : q->text(1), q->real(2)};
}

DriverClaim SweepStore::claimDriver(std::int64_t sweep_id, const SweepDriver& me,
                                    const std::function<bool(const SweepDriver&)>& gone) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    DriverClaim claim;
    if (const auto holder = driver(sweep_id))
        claim.holder = *holder;
    const bool mine = claim.holder.pid == me.pid && claim.holder.host == me.host;
    if (claim.holder.pid >= 0 && !mine && !gone(claim.holder))
        return claim;
    auto up = db.cached("UPDATE sweeps SET driver_pid = ?2, driver_host = ?3, "
                        "driver_heartbeat_at = ?4 WHERE id = ?1");
    up->bind(1, sweep_id).bind(2, me.pid).bind(3, me.host).bind(4, unixNow());
    up->run();
    tx.commit();
    claim.claimed = true;
    return claim;
}

bool SweepStore::refreshDriver(std::int64_t sweep_id, const SweepDriver& me) {
    auto up = m_impl->db.cached("UPDATE sweeps SET driver_heartbeat_at = ?4 WHERE id = ?1 AND "
                                "driver_pid = ?2 AND driver_host = ?3");
    up->bind(1, sweep_id).bind(2, me.pid).bind(3, me.host).bind(4, unixNow());
    up->run();
    return m_impl->db.changes() > 0;
}

void SweepStore::releaseDriver(std::int64_t sweep_id, const SweepDriver& me) {
    auto up = m_impl->db.cached("UPDATE sweeps SET driver_pid = NULL, driver_host = NULL, "
                                "driver_heartbeat_at = NULL WHERE id = ?1 AND driver_pid = ?2 "
                                "AND driver_host = ?3");
    up->bind(1, sweep_id).bind(2, me.pid).bind(3, me.host);
    up->run();
}

void SweepStore::addTrials(std::int64_t sweep_id, std::vector<TrialRecord> trials) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Write);
    m_impl->requireSweep(sweep_id);
    m_impl->insertTrials(sweep_id, trials);
    tx.commit();
}

std::vector<TrialRecord> SweepStore::trials(std::int64_t sweep_id) {
    SqliteDb& db = m_impl->db;
    Transaction tx(db, Transaction::Kind::Read);
    m_impl->requireSweep(sweep_id);
    auto q = db.cached("SELECT " + std::string(kTrialColumns) +
                       " FROM sweep_trials WHERE sweep_id = ?1 ORDER BY idx");
    q->bind(1, sweep_id);
    std::vector<TrialRecord> out;
    while (q->step()) {
        TrialRecord t;
        t.idx = q->int32(0);
        t.phase = q->text(1);
        t.repeat_of = q->isNull(2) ? -1 : q->int32(2);
        t.axes_json = q->text(3);
        t.config_json = q->text(4);
        t.world = q->int32(5);
        const std::string status = q->text(6);
        const auto s = trialStatusFromName(status);
        if (!s)
            throw StoreError(m_impl->context(sweep_id) + ": trial " + std::to_string(t.idx) +
                             ": unknown status '" + status + "'");
        t.status = *s;
        t.reason = q->text(7);
        t.forecast_bytes = intOr(*q, 8);
        t.capacity_bytes = intOr(*q, 9);
        t.run_id = intOr(*q, 10);
        t.pid = intOr(*q, 11);
        t.tokens_per_s = q->real(12);
        t.spread_tokens_per_s = q->real(13);
        t.peak_bytes = intOr(*q, 14);
        t.exposed_ms = q->real(15);
        t.started_at = q->real(16);
        t.ended_at = q->real(17);
        out.push_back(std::move(t));
    }
    return out;
}

void SweepStore::updateTrial(std::int64_t sweep_id, const TrialRecord& t) {
    auto up = m_impl->db.cached(
        "UPDATE sweep_trials SET phase = ?3, repeat_of = ?4, axes = ?5, config = ?6, world = ?7, "
        "status = ?8, reason = ?9, forecast_bytes = ?10, capacity_bytes = ?11, run_id = ?12, "
        "pid = ?13, tokens_per_s = ?14, spread_tokens_per_s = ?15, peak_bytes = ?16, "
        "exposed_ms = ?17, started_at = ?18, ended_at = ?19 WHERE sweep_id = ?1 AND idx = ?2");
    bindTrial(*up, sweep_id, t);
    up->run();
    if (m_impl->db.changes() == 0)
        throw StoreError(m_impl->context(sweep_id) + ": no trial " + std::to_string(t.idx));
}

} // namespace zerolab
