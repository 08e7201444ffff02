// A thin RAII wrapper over the sqlite3 C API: a connection, prepared statements and
// transactions. Every return code is checked; failures throw StoreError naming the
// file, the SQL and SQLite's message. Internal to storage/ (RunWriter, RunReader, RunStore).
#pragma once

#include "storage/store_error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace zerolab {

class SqliteDb;

// One prepared statement, owned (finalized on destruction). Bind indices are 1-based,
// column indices 0-based. NaN doubles bind as NULL and NULL reads back as NaN.
class SqliteStatement {
public:
    SqliteStatement(SqliteDb& db, std::string_view sql);
    SqliteStatement(SqliteStatement&& o) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;
    SqliteStatement(const SqliteStatement&) = delete;
    ~SqliteStatement();

    SqliteStatement& bind(int index, std::int64_t v);
    SqliteStatement& bind(int index, int v) { return bind(index, static_cast<std::int64_t>(v)); }
    SqliteStatement& bind(int index, double v);
    SqliteStatement& bind(int index, std::string_view v);
    SqliteStatement& bindNull(int index);

    // Advances; true when a row is available. Waits out SQLITE_BUSY (busy timeout, then
    // retries), so "database is locked" only escapes after a long, real deadlock.
    bool step();
    // Steps to completion, then resets. For statements that return no rows.
    void run();
    // Ends the statement's read (releasing its snapshot) and clears the bindings.
    void reset();

    std::int64_t int64(int col) const;
    int int32(int col) const { return static_cast<int>(int64(col)); }
    double real(int col) const; // NaN for NULL
    std::string text(int col) const;
    bool isNull(int col) const;

    const std::string& sql() const { return m_sql; }

private:
    SqliteDb* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_sql;
};

// Resets a cached statement when the scope ends, so that no statement keeps a read
// snapshot open between calls (that would stall WAL checkpoints and hide new data).
class StatementScope {
public:
    explicit StatementScope(SqliteStatement& s) : m_s(s) { m_s.reset(); }
    ~StatementScope() { m_s.reset(); }
    StatementScope(const StatementScope&) = delete;
    StatementScope& operator=(const StatementScope&) = delete;
    SqliteStatement* operator->() { return &m_s; }
    SqliteStatement& operator*() { return m_s; }

private:
    SqliteStatement& m_s;
};

// One connection. Owns its cached statements; not thread-safe.
class SqliteDb {
public:
    // flags: SQLITE_OPEN_* bits. Throws StoreError. uri: open this "file:" URI instead of
    // path (SQLITE_OPEN_URI); messages still name path.
    SqliteDb(const std::string& path, int flags, const std::string& uri = {});
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    // Runs one or more statements that return no rows we need.
    void exec(std::string_view sql);
    // A statement prepared once per connection and reused; reset when the scope ends.
    StatementScope cached(std::string_view sql);
    // A one-shot integer query, e.g. "PRAGMA user_version".
    std::int64_t queryInt(std::string_view sql);

    // Ends an open transaction, if any, and never throws: SQLite has already rolled
    // back after some errors (SQLITE_FULL, SQLITE_IOERR), and a ROLLBACK then fails
    // with "no transaction is active", which would hide the error that matters.
    void rollback() noexcept;

    // True when the file this connection opened was deleted, renamed or replaced since
    // (SQLITE_FCNTL_HAS_MOVED: its link count is 0 or its path names another inode).
    bool fileMoved() const;

    std::int64_t lastInsertRowid() const;
    int changes() const;
    const std::string& path() const { return m_path; }
    sqlite3* handle() const { return m_db; }

    // Throws StoreError "<file>: <what>: <sqlite message> (code) [in: <sql>]", of kind Io
    // for a full disk, an I/O error, a file that cannot be opened or written.
    [[noreturn]] void fail(int rc, std::string_view what, std::string_view sql = {}) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
    std::unordered_map<std::string, std::unique_ptr<SqliteStatement>> m_cache;
};

// BEGIN (IMMEDIATE for writers, so the write lock is taken up front and a busy wait
// happens at BEGIN, never mid-transaction) ... COMMIT; rolls back unless committed.
class Transaction {
public:
    enum class Kind { Read, Write };
    Transaction(SqliteDb& db, Kind kind);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    SqliteDb& m_db;
    bool m_open = false;
};

} // namespace zerolab
