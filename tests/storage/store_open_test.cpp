// Opening the run store: new stores get the schema and pragmas; files that are not
// SQLite, truncated, foreign or newer fail with a clear StoreError (and exit 2 from
// zerolab-runs) and stay byte-identical.
#include "storage/run_store.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

using namespace zerolab;
using namespace zerolab::test;

namespace {

std::string openError(const std::string& path, OpenMode mode = OpenMode::ReadWrite) {
    try {
        RunStore::open(path, mode);
    } catch (const StoreError& e) {
        return e.what();
    }
    return {};
}

// A real store with a few steps, checkpointed so that the main file holds everything.
std::string makeStore(const TempDir& dir, const std::string& name, int steps) {
    const std::string path = dir.file(name);
    {
        RunWriter w(RunStore::open(path));
        w.createRun(makeRunInfo("r", 2));
        w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
        for (int i = 0; i < steps; ++i)
            w.appendStep(makeStep(i, 2));
    }
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    return path;
}

// Expects a StoreError mentioning the file and `expect`, exit 2 from the CLI, and
// no change to the file's bytes.
void expectRejected(const std::string& path, const std::string& expect) {
    const std::string before = readBytes(path);
    const std::string err = openError(path);
    EXPECT_NE(err.find(path), std::string::npos) << err;
    EXPECT_NE(err.find(expect), std::string::npos) << err;
    EXPECT_NE(openError(path, OpenMode::ReadOnly), "");
    const CliResult cli = runCli({"--db", path, "list"});
    EXPECT_EQ(cli.exit_code, 2) << cli.out << cli.err;
    EXPECT_NE(cli.err.find(expect), std::string::npos) << cli.err;
    EXPECT_EQ(readBytes(path), before) << "the rejected file was modified";
}

} // namespace

TEST(StoreOpen, CreatesFoldersSchemaAndPragmas) {
    TempDir dir;
    const std::string path = dir.file("a/b/runs.db");
    RunStore store = RunStore::open(path);
    EXPECT_TRUE(std::filesystem::exists(path));
    SqliteDb& db = store.db();
    EXPECT_EQ(db.queryInt("PRAGMA user_version"), RunStore::kSchemaVersion);
    EXPECT_EQ(db.queryInt("PRAGMA application_id"), RunStore::kApplicationId);
    EXPECT_EQ(db.queryInt("PRAGMA foreign_keys"), 1);
    EXPECT_EQ(db.queryInt("PRAGMA synchronous"), 1); // NORMAL
    SqliteStatement jm(db, "PRAGMA journal_mode");
    ASSERT_TRUE(jm.step());
    EXPECT_EQ(jm.text(0), "wal");
    for (auto name : kMemCategoryNames) {
        SqliteStatement col(db, "SELECT count(*) FROM pragma_table_info('rank_steps') WHERE name "
                                "= ?1");
        col.bind(1, name);
        ASSERT_TRUE(col.step());
        EXPECT_EQ(col.int64(0), 1) << "rank_steps lacks a column for " << name;
    }
}

TEST(StoreOpen, ReopenKeepsDataAndReadOnlyWorks) {
    TempDir dir;
    const std::string path = makeStore(dir, "runs.db", 3);
    RunStore ro = RunStore::open(path, OpenMode::ReadOnly);
    EXPECT_EQ(ro.db().queryInt("SELECT count(*) FROM steps"), 3);
    EXPECT_THROW(ro.db().exec("DELETE FROM steps"), StoreError);
    RunStore rw = RunStore::open(path);
    EXPECT_EQ(rw.db().queryInt("SELECT count(*) FROM rank_steps"), 6);
}

TEST(StoreOpen, ReadOnlyDoesNotCreate) {
    TempDir dir;
    const std::string path = dir.file("missing.db");
    EXPECT_NE(openError(path, OpenMode::ReadOnly).find("no run store"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(StoreOpen, RejectsNonSqliteFile) {
    TempDir dir;
    const std::string path = dir.file("notes.txt");
    writeBytes(path, "these are my notes, not a database\n" + std::string(5000, 'x'));
    expectRejected(path, "not a SQLite database");
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(StoreOpen, RejectsTinyNonSqliteFile) {
    TempDir dir;
    const std::string path = dir.file("tiny.db");
    writeBytes(path, "hi");
    expectRejected(path, "not a SQLite database");
}

TEST(StoreOpen, RejectsTruncatedFile) {
    TempDir dir;
    const std::string path = makeStore(dir, "runs.db", 200);
    const std::string full = readBytes(path);
    ASSERT_GT(full.size(), 4u * 4096u);
    writeBytes(path, full.substr(0, full.size() / 2));
    expectRejected(path, "truncated");
}

TEST(StoreOpen, RejectsFileCutInsideHeader) {
    TempDir dir;
    const std::string path = makeStore(dir, "runs.db", 1);
    writeBytes(path, readBytes(path).substr(0, 60));
    expectRejected(path, "truncated");
}

TEST(StoreOpen, RejectsNewerSchema) {
    TempDir dir;
    const std::string path = makeStore(dir, "runs.db", 2);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr),
                  SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    expectRejected(path, "newer");
}

TEST(StoreOpen, RejectsAnotherApplicationsDatabase) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB)",
                               nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    expectRejected(path, "not a zerolab run store");
}
