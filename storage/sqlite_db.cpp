// The sqlite3 RAII wrapper: error messages with file and SQL, busy retries, and
// the per-connection statement cache.
#include "storage/sqlite_db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <thread>

namespace zerolab {

namespace {

// After the busy timeout (RunStore::kBusyTimeoutMs) has already waited, a step that is
// still busy is retried this many more times, sleeping kBusyRetrySleep in between.
constexpr int kBusyRetries = 20;
constexpr auto kBusyRetrySleep = std::chrono::milliseconds(50);

bool isBusy(int rc) {
    const int primary = rc & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// Failures of the disk or of the file's place in it, as opposed to a bad file.
StoreError::Kind kindOf(int rc) {
    switch (rc & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_NOMEM:
        return StoreError::Kind::Io;
    default:
        return StoreError::Kind::Invalid;
    }
}

} // namespace

SqliteDb::SqliteDb(const std::string& path, int flags, const std::string& uri) : m_path(path) {
    const int rc =
        sqlite3_open_v2(uri.empty() ? path.c_str() : uri.c_str(), &m_db,
                        flags | SQLITE_OPEN_NOMUTEX | (uri.empty() ? 0 : SQLITE_OPEN_URI), nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw StoreError(path + ": cannot open: " + msg);
    }
    sqlite3_extended_result_codes(m_db, 1);
}

SqliteDb::~SqliteDb() {
    // A store file deleted under this connection: SQLite keeps writing its -wal (tens of
    // MB) and -shm beside the name, and leaves them at the close. They belong to no file
    // any more; removed once closed, unless a file of that name is there again.
    int moved = 0;
    const bool orphaned =
        m_db != nullptr && m_path != ":memory:" &&
        sqlite3_file_control(m_db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK &&
        moved != 0;
    m_cache.clear();
    sqlite3_close_v2(m_db);
    if (orphaned && ::access(m_path.c_str(), F_OK) != 0) {
        ::unlink((m_path + "-wal").c_str());
        ::unlink((m_path + "-shm").c_str());
    }
}

void SqliteDb::fail(int rc, std::string_view what, std::string_view sql) const {
    std::string msg = m_path + ": " + std::string(what) + ": ";
    msg += m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
    msg += " (code " + std::to_string(rc) + ")";
    if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
        msg += " (the store file is damaged)";
    if (!sql.empty())
        msg += " in: " + std::string(sql);
    throw StoreError(msg, kindOf(rc));
}

void SqliteDb::exec(std::string_view sql) {
    const std::string s(sql);
    for (int attempt = 0;; ++attempt) {
        char* err = nullptr;
        const int rc = sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err);
        sqlite3_free(err);
        if (rc == SQLITE_OK)
            return;
        if (isBusy(rc) && attempt < kBusyRetries && sqlite3_get_autocommit(m_db)) {
            std::this_thread::sleep_for(kBusyRetrySleep);
            continue;
        }
        fail(rc, "statement failed", s);
    }
}

StatementScope SqliteDb::cached(std::string_view sql) {
    auto it = m_cache.find(std::string(sql));
    if (it == m_cache.end())
        it = m_cache.emplace(std::string(sql), std::make_unique<SqliteStatement>(*this, sql)).first;
    return StatementScope(*it->second);
}

std::int64_t SqliteDb::queryInt(std::string_view sql) {
    SqliteStatement s(*this, sql);
    if (!s.step())
        fail(SQLITE_ERROR, "query returned no row", sql);
    return s.int64(0);
}

void SqliteDb::rollback() noexcept {
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool SqliteDb::fileMoved() const {
    int moved = 0;
    if (const int rc = sqlite3_file_control(m_db, "main", SQLITE_FCNTL_HAS_MOVED, &moved);
        rc != SQLITE_OK)
        fail(rc, "cannot check whether the file was moved");
    return moved != 0;
}

std::int64_t SqliteDb::lastInsertRowid() const {
    return sqlite3_last_insert_rowid(m_db);
}

int SqliteDb::changes() const {
    return sqlite3_changes(m_db);
}

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql) : m_db(&db), m_sql(sql) {
    const int rc = sqlite3_prepare_v3(db.handle(), m_sql.data(), static_cast<int>(m_sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        db.fail(rc, "cannot prepare", m_sql);
}

SqliteStatement::SqliteStatement(SqliteStatement&& o) noexcept
    : m_db(o.m_db), m_stmt(o.m_stmt), m_sql(std::move(o.m_sql)) {
    o.m_stmt = nullptr;
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_stmt);
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t v) {
    if (const int rc = sqlite3_bind_int64(m_stmt, index, v); rc != SQLITE_OK)
        m_db->fail(rc, "cannot bind parameter " + std::to_string(index), m_sql);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double v) {
    if (std::isnan(v))
        return bindNull(index);
    if (const int rc = sqlite3_bind_double(m_stmt, index, v); rc != SQLITE_OK)
        m_db->fail(rc, "cannot bind parameter " + std::to_string(index), m_sql);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view v) {
    const int rc =
        sqlite3_bind_text64(m_stmt, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK)
        m_db->fail(rc, "cannot bind parameter " + std::to_string(index), m_sql);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    if (const int rc = sqlite3_bind_null(m_stmt, index); rc != SQLITE_OK)
        m_db->fail(rc, "cannot bind parameter " + std::to_string(index), m_sql);
    return *this;
}

bool SqliteStatement::step() {
    for (int attempt = 0;; ++attempt) {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        // Retrying is only sound outside an explicit transaction (a busy snapshot
        // inside one cannot be waited out); transactions take their lock at BEGIN.
        if (isBusy(rc) && attempt < kBusyRetries && sqlite3_get_autocommit(m_db->handle())) {
            sqlite3_reset(m_stmt);
            std::this_thread::sleep_for(kBusyRetrySleep);
            continue;
        }
        sqlite3_reset(m_stmt);
        m_db->fail(rc, "statement failed", m_sql);
    }
}

void SqliteStatement::run() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t SqliteStatement::int64(int col) const {
    return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col) const {
    if (sqlite3_column_type(m_stmt, col) == SQLITE_NULL)
        return std::nan("");
    return sqlite3_column_double(m_stmt, col);
}

std::string SqliteStatement::text(int col) const {
    const auto* p = sqlite3_column_text(m_stmt, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)))
             : std::string();
}

bool SqliteStatement::isNull(int col) const {
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

Transaction::Transaction(SqliteDb& db, Kind kind) : m_db(db) {
    m_db.exec(kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN");
    m_open = true;
}

Transaction::~Transaction() {
    if (m_open)
        m_db.rollback();
}

void Transaction::commit() {
    m_db.exec("COMMIT");
    m_open = false;
}

} // namespace zerolab
