// RunStore: one open connection to a run-store file. Opening validates the file
// before anything is written (not SQLite, truncated, foreign or newer schema ->
// StoreError, file untouched), creates new stores and applies forward migrations.
#pragma once

#include "storage/store_error.h"

#include <memory>
#include <string>

namespace zerolab {

class SqliteDb;

enum class OpenMode {
    ReadWrite, // creates the file, its parent folders and the schema when missing; migrates
    ReadOnly,  // the file must exist and already have this build's schema version
};

// Owns one SQLite connection (WAL, synchronous=NORMAL, busy timeout 5 s, foreign keys on).
// Move-only. Not thread-safe: use one RunStore (and so one RunWriter/RunReader) per thread.
class RunStore {
public:
    // The schema version this build writes (PRAGMA user_version).
    static constexpr int kSchemaVersion = 11;
    // The PRAGMA application_id that marks a file as a zerolab run store ("ZLAB").
    static constexpr int kApplicationId = 0x5A4C4142;
    static constexpr int kBusyTimeoutMs = 5000;

    // Throws StoreError naming `path` and the problem.
    static RunStore open(const std::string& path, OpenMode mode = OpenMode::ReadWrite);

    RunStore(RunStore&&) noexcept;
    RunStore& operator=(RunStore&&) noexcept;
    ~RunStore();

    const std::string& path() const;
    OpenMode mode() const { return m_mode; }
    // The connection; used by RunWriter and RunReader.
    SqliteDb& db();

private:
    RunStore(std::unique_ptr<SqliteDb> db, OpenMode mode);

    // Registers the file as open in this process while this store lives (run_store.cpp:
    // a raw read of a file the process holds open would drop its SQLite locks). Declared
    // first so that it is released after the connection closes.
    std::shared_ptr<void> m_claim;
    std::unique_ptr<SqliteDb> m_db;
    OpenMode m_mode = OpenMode::ReadWrite;
};

} // namespace zerolab
