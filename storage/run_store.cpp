// Opening a run store: validate an existing file without writing to it (raw header
// first, then a read-only SQLite connection), then open read-write, set the
// connection's pragmas and create or migrate the schema in one transaction.
#include "storage/run_store.h"

#include "storage/schema_sql.h"
#include "storage/sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <utility>
#include <vector>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

// One forward migration: applied to a store at version `from`, leaves it at from + 1.
struct Migration {
    int from;
    std::string_view sql;
};
constexpr std::array<Migration, 10> kMigrations = {{{1, kMigrateV2Sql},
                                                    {2, kMigrateV3Sql},
                                                    {3, kMigrateV4Sql},
                                                    {4, kMigrateV5Sql},
                                                    {5, kMigrateV6Sql},
                                                    {6, kMigrateV7Sql},
                                                    {7, kMigrateV8Sql},
                                                    {8, kMigrateV9Sql},
                                                    {9, kMigrateV10Sql},
                                                    {10, kMigrateV11Sql}}};
static_assert(kMigrations.size() + 1 == RunStore::kSchemaVersion,
              "one migration per schema version after the first");

constexpr long long kMmapBytes = 256LL << 20;
constexpr int kCacheKiB = 16 << 10;

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
constexpr std::size_t kHeaderBytes = 100;

std::uint32_t be32(const unsigned char* p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

std::string newerSchemaMessage(const std::string& path, std::int64_t version) {
    return path + ": run store schema version " + std::to_string(version) +
           " is newer than this build's version " + std::to_string(RunStore::kSchemaVersion) +
           "; open it with a newer zerolab (the file was not changed)";
}

// Checks the 100-byte SQLite header of an existing, non-empty file by plain reads,
// so that nothing (not even a -wal or -shm file) is created for a file we reject.
void checkHeader(const std::string& path, std::uintmax_t size) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw StoreError(path + ": cannot read the file");
    std::array<unsigned char, kHeaderBytes> h{};
    in.read(reinterpret_cast<char*>(h.data()), kHeaderBytes);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got < kSqliteMagic.size() || std::string_view(reinterpret_cast<const char*>(h.data()),
                                                      kSqliteMagic.size()) != kSqliteMagic)
        throw StoreError(path + ": not a SQLite database (no SQLite header); the file was "
                                "not changed");
    if (got < kHeaderBytes)
        throw StoreError(path + ": truncated SQLite database (" + std::to_string(size) +
                         " bytes, less than its 100-byte header); the file was not changed");
    std::uint32_t pageSize = (std::uint32_t(h[16]) << 8) | h[17];
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        throw StoreError(path + ": damaged SQLite header (page size " + std::to_string(pageSize) +
                         "); the file was not changed");
    // The in-header page count is valid when the change counter matches
    // version-valid-for. With a non-empty WAL beside it, SQLite may be mid-checkpoint
    // and the file legitimately shorter; SQLite's own recovery decides then.
    std::error_code ec;
    const fs::path wal = path + "-wal";
    const bool walHasData = fs::exists(wal, ec) && fs::file_size(wal, ec) > 0 && !ec;
    const std::uint32_t pages = be32(&h[28]);
    if (!walHasData && pages != 0 && be32(&h[24]) == be32(&h[92]) &&
        (size < std::uintmax_t(pages) * pageSize || size % pageSize != 0))
        throw StoreError(path + ": truncated SQLite database (" + std::to_string(size) +
                         " bytes, its header says " + std::to_string(pages) + " pages of " +
                         std::to_string(pageSize) + " bytes); the file was not changed");
    const std::uint32_t version = be32(&h[60]);
    if (version > std::uint32_t(RunStore::kSchemaVersion))
        throw StoreError(newerSchemaMessage(path, version));
    const std::uint32_t appId = be32(&h[68]);
    if (appId != 0 && appId != std::uint32_t(RunStore::kApplicationId))
        throw StoreError(path + ": a SQLite database of another application (application_id " +
                         hex(appId) + "), not a zerolab run store; the file was not changed");
}

// What a read-only SQLite connection says about an existing file (WAL content included).
struct Inspection {
    std::int64_t version = 0;
    std::int64_t appId = 0;
    std::int64_t objects = 0; // tables, indexes, ... in sqlite_schema
};

Inspection inspectReadOnly(const std::string& path) {
    try {
        SqliteDb db(path, SQLITE_OPEN_READONLY);
        sqlite3_busy_timeout(db.handle(), RunStore::kBusyTimeoutMs);
        Inspection r;
        r.objects = db.queryInt("SELECT count(*) FROM sqlite_schema");
        r.version = db.queryInt("PRAGMA user_version");
        r.appId = db.queryInt("PRAGMA application_id");
        return r;
    } catch (const StoreError& e) {
        throw StoreError(std::string(e.what()) + " (not a readable run store; the file was "
                                                 "not changed)",
                         e.kind());
    }
}

void validateExisting(const std::string& path, const Inspection& r) {
    if (r.version > RunStore::kSchemaVersion)
        throw StoreError(newerSchemaMessage(path, r.version));
    const bool blank = r.version == 0 && r.appId == 0 && r.objects == 0;
    if (!blank && r.appId != RunStore::kApplicationId)
        throw StoreError(path +
                         ": a SQLite database that is not a zerolab run store "
                         "(application_id " +
                         hex(std::uint32_t(r.appId)) + ", user_version " +
                         std::to_string(r.version) + "); the file was not changed");
}

// The columns of every table of this build's schema, by table, from kSchemaSql run in
// a private in-memory database (so the check can never drift from the schema).
std::vector<std::pair<std::string, std::vector<std::string>>> tableColumns(SqliteDb& db) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    SqliteStatement tables(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name "
                               "NOT LIKE 'sqlite_%' ORDER BY name");
    while (tables.step())
        out.emplace_back(tables.text(0), std::vector<std::string>{});
    tables.reset();
    for (auto& [table, columns] : out) {
        SqliteStatement cols(db, "SELECT name FROM pragma_table_info(?1)");
        cols.bind(1, std::string_view(table));
        while (cols.step())
            columns.push_back(cols.text(0));
    }
    return out;
}

// A store whose tables or columns differ from this build's schema (a dropped table or
// column, an edit by hand) is refused at open, not at the first write that needs them.
// The reference is built once per process (it cost every open a schema's worth of DDL).
void checkSchema(SqliteDb& db) {
    static const auto expected = [] {
        SqliteDb reference(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        reference.exec(kSchemaSql);
        return tableColumns(reference);
    }();
    const auto actual = tableColumns(db);
    const auto damaged = [&](const std::string& what) {
        throw StoreError(db.path() + ": damaged run store: " + what + " (schema version " +
                         std::to_string(RunStore::kSchemaVersion) + "); the file was not changed");
    };
    for (const auto& entry : expected) {
        const std::string& table = entry.first; // named: clang 14 captures no bindings
        const auto& columns = entry.second;
        const auto it = std::find_if(actual.begin(), actual.end(),
                                     [&](const auto& t) { return t.first == table; });
        if (it == actual.end())
            damaged("table '" + table + "' is missing");
        for (const std::string& c : columns)
            if (std::find(it->second.begin(), it->second.end(), c) == it->second.end())
                damaged("table '" + table + "' has no column '" + c + "'");
    }
}

// Creates the schema in a blank store or applies the forward migrations, atomically.
// Re-reads the version inside the write transaction: another process may have won.
// Foreign keys must be off (they cannot change inside a transaction): a migration that
// rebuilds a table (migrate_v7.sql) drops the old one, which would otherwise cascade.
// They are checked before the commit instead.
void createOrMigrate(SqliteDb& db) {
    Transaction tx(db, Transaction::Kind::Write);
    const std::int64_t version = db.queryInt("PRAGMA user_version");
    if (version == RunStore::kSchemaVersion) {
        checkSchema(db);
        return;
    }
    if (version > RunStore::kSchemaVersion)
        throw StoreError(newerSchemaMessage(db.path(), version));
    if (version == 0) {
        db.exec(kSchemaSql);
        db.exec("PRAGMA application_id = " + std::to_string(RunStore::kApplicationId));
    } else {
        for (const Migration& m : kMigrations)
            if (m.from >= version) {
                try {
                    db.exec(m.sql);
                } catch (const StoreError& e) {
                    throw StoreError(std::string(e.what()) + " (migrating from schema version " +
                                         std::to_string(m.from) + ")",
                                     e.kind());
                }
            }
        if (db.queryInt("SELECT count(*) FROM pragma_foreign_key_check") != 0)
            throw StoreError(db.path() + ": the migration from schema version " +
                             std::to_string(version) +
                             " left rows without their run; the file was not changed");
    }
    db.exec("PRAGMA user_version = " + std::to_string(RunStore::kSchemaVersion));
    checkSchema(db); // a damaged older store: its migration is rolled back with it
    tx.commit();
}

// POSIX record locks belong to a process and a file: closing *any* descriptor of the file
// drops every lock the process holds on it, SQLite's included (SQLite's own connections
// share one record per file to avoid exactly that). checkHeader reads through a descriptor
// of its own, so it must not run on a file this process already holds open: doing so
// left the open connections without their shared lock, and another process's close then
// took the file as unused and checkpointed and deleted the WAL under them. Open stores
// are counted here by device and inode; one held open was checked when first opened.
using FileKey = std::pair<dev_t, ino_t>;

std::mutex& openFilesMutex() {
    static std::mutex m;
    return m;
}
std::map<FileKey, int>& openFiles() {
    static std::map<FileKey, int> files;
    return files;
}

std::optional<FileKey> fileKey(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return FileKey{st.st_dev, st.st_ino};
}

// Counts the file as open in this process until the returned handle is released.
std::shared_ptr<void> claimFile(const std::string& path) {
    const std::optional<FileKey> key = fileKey(path);
    if (!key)
        return nullptr;
    {
        const std::lock_guard lock(openFilesMutex());
        ++openFiles()[*key];
    }
    return std::shared_ptr<void>(nullptr, [k = *key](void*) {
        const std::lock_guard lock(openFilesMutex());
        auto& files = openFiles();
        if (auto it = files.find(k); it != files.end() && --it->second == 0)
            files.erase(it);
    });
}

bool heldOpenHere(const std::string& path) {
    const std::optional<FileKey> key = fileKey(path);
    const std::lock_guard lock(openFilesMutex());
    return key && openFiles().count(*key) > 0;
}

} // namespace

RunStore RunStore::open(const std::string& path, OpenMode mode) {
    if (path.empty())
        throw StoreError("run store path is empty");
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (ec)
        throw StoreError(path + ": cannot stat: " + ec.message());
    if (exists && fs::is_directory(path, ec))
        throw StoreError(path + ": is a directory, not a run store file");
    const std::uintmax_t size = exists ? fs::file_size(path, ec) : 0;
    if (ec)
        throw StoreError(path + ": cannot stat: " + ec.message());

    if (exists && size > 0) {
        if (!heldOpenHere(path))
            checkHeader(path, size);
        const Inspection r = inspectReadOnly(path);
        validateExisting(path, r);
        if (mode == OpenMode::ReadOnly && r.version != kSchemaVersion)
            throw StoreError(path + ": run store schema version " + std::to_string(r.version) +
                             " is older than this build's " + std::to_string(kSchemaVersion) +
                             "; open it read-write once to migrate it");
    } else if (mode == OpenMode::ReadOnly) {
        throw StoreError(path + ": no run store here (a read-only open does not create one)");
    } else if (!exists) {
        const fs::path parent = fs::path(path).parent_path();
        if (!parent.empty())
            fs::create_directories(parent, ec);
        if (ec)
            throw StoreError(path + ": cannot create folder " + parent.string() + ": " +
                             ec.message());
    }

    const int flags = mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY
                                                 : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    auto db = std::make_unique<SqliteDb>(path, flags);
    if (const int rc = sqlite3_busy_timeout(db->handle(), kBusyTimeoutMs); rc != SQLITE_OK)
        db->fail(rc, "cannot set the busy timeout");
    // Reads of long series: map the file instead of copying pages, and keep a larger
    // page cache for the long-lived GUI reader. Both are per connection, not in the file.
    db->exec("PRAGMA mmap_size = " + std::to_string(kMmapBytes));
    db->exec("PRAGMA cache_size = -" + std::to_string(kCacheKiB));
    if (mode == OpenMode::ReadWrite) {
        SqliteStatement wal(*db, "PRAGMA journal_mode = WAL");
        const std::string journal = wal.step() ? wal.text(0) : std::string();
        wal.reset();
        if (journal != "wal")
            throw StoreError(path + ": cannot switch to WAL journal mode (got '" + journal +
                             "'); is the file on a network file system?");
        db->exec("PRAGMA synchronous = NORMAL");
        createOrMigrate(*db);
    } else {
        Transaction tx(*db, Transaction::Kind::Read);
        checkSchema(*db);
    }
    db->exec("PRAGMA foreign_keys = ON");
    RunStore store(std::move(db), mode);
    store.m_claim = claimFile(path);
    return store;
}

RunStore::RunStore(std::unique_ptr<SqliteDb> db, OpenMode mode)
    : m_db(std::move(db)), m_mode(mode) {}
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;
RunStore::~RunStore() = default;

const std::string& RunStore::path() const {
    return m_db->path();
}

SqliteDb& RunStore::db() {
    return *m_db;
}

} // namespace zerolab
