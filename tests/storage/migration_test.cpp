// Forward migration from schema v1 (storage/schema_v1.sql, frozen): data survives,
// tags move to rows, segments appear, and the result has exactly the tables, columns,
// indexes and foreign keys of a store created from schema.sql.
#include "storage/run_reader.h"
#include "storage/run_store.h"
#include "storage/run_uuid.h"
#include "storage/schema_sql.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace zerolab;
using namespace zerolab::test;

namespace {

void execRaw(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    ASSERT_EQ(rc, SQLITE_OK) << msg << " in " << sql;
}

// A v1 store as build 1 would have left it: two runs, steps and rank rows, an event.
void makeV1Store(const std::string& path) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    execRaw(db, "PRAGMA journal_mode = WAL");
    execRaw(db, std::string(kSchemaV1Sql));
    execRaw(db, "PRAGMA application_id = " + std::to_string(RunStore::kApplicationId));
    execRaw(db, "PRAGMA user_version = 1");
    execRaw(db, "INSERT INTO runs (id, name, status, created_at, started_at, ended_at, host, "
                "world, stage, precision, params, tags) VALUES "
                "(1, 'old', 'finished', 100, 101, 160, 'h', 2, 1, 'fp32', 1000, 'a, b,,c'), "
                "(2, 'older', 'failed', 200, 201, 202, 'h', 4, 3, 'bf16', 2000, '')");
    for (int step = 5; step < 8; ++step) {
        execRaw(db, "INSERT INTO steps (run_id, step, loss, tokens_per_s) VALUES (1, " +
                        std::to_string(step) + ", " + std::to_string(step * 0.5) + ", " +
                        std::to_string(100 * step) + ")");
        for (int rank = 0; rank < 2; ++rank)
            execRaw(db, "INSERT INTO rank_steps (run_id, step, rank, params) VALUES (1, " +
                            std::to_string(step) + ", " + std::to_string(rank) + ", 4000)");
    }
    execRaw(db, "INSERT INTO events (run_id, time, level, rank, message) VALUES "
                "(1, 150, 'warn', 0, 'slow step')");
    sqlite3_close(db);
}

// Every table's columns, indexes and foreign keys, as text, for comparing schemas.
std::string describeSchema(SqliteDb& db) {
    std::string out;
    SqliteStatement tables(db, "SELECT name FROM sqlite_schema WHERE type = 'table' "
                               "ORDER BY name");
    while (tables.step()) {
        const std::string t = tables.text(0);
        out += "table " + t + "\n";
        SqliteStatement cols(db, "SELECT name, type, \"notnull\", coalesce(dflt_value, ''), pk "
                                 "FROM pragma_table_info(?1) ORDER BY cid");
        cols.bind(1, t);
        while (cols.step())
            out += "  col " + cols.text(0) + " " + cols.text(1) + " " + cols.text(2) + " " +
                   cols.text(3) + " " + cols.text(4) + "\n";
        SqliteStatement fks(db, "SELECT \"table\", \"from\", \"to\", on_delete FROM "
                                "pragma_foreign_key_list(?1) ORDER BY id, seq");
        fks.bind(1, t);
        while (fks.step())
            out += "  fk " + fks.text(0) + " " + fks.text(1) + " " + fks.text(2) + " " +
                   fks.text(3) + "\n";
    }
    SqliteStatement idx(db, "SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' "
                            "AND sql IS NOT NULL ORDER BY name");
    while (idx.step())
        out += "index " + idx.text(0) + " on " + idx.text(1) + ": " + idx.text(2) + "\n";
    SqliteStatement checks(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' "
                               "ORDER BY name");
    while (checks.step()) {
        const std::string sql = checks.text(1);
        for (std::size_t p = sql.find("CHECK"); p != std::string::npos;
             p = sql.find("CHECK", p + 1))
            out += "check " + checks.text(0) + ": " + sql.substr(p, sql.find(')', p) - p) + "\n";
    }
    return out;
}

} // namespace

TEST(StoreMigration, V1DataSurvives) {
    TempDir dir;
    const std::string path = dir.file("v1.db");
    makeV1Store(path);
    RunReader reader(RunStore::open(path));

    const RunRecord run = reader.run(1);
    EXPECT_EQ(run.info.name, "old");
    EXPECT_EQ(run.status, RunStatus::Finished);
    EXPECT_EQ(run.info.tags, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_TRUE(reader.run(2).info.tags.empty());
    // v5 gave every existing run its own version-4 uuid.
    EXPECT_TRUE(isRunUuid(run.info.uuid)) << run.info.uuid;
    EXPECT_TRUE(isRunUuid(reader.run(2).info.uuid)) << reader.run(2).info.uuid;
    EXPECT_NE(run.info.uuid, reader.run(2).info.uuid);

    const auto steps = reader.steps(1);
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].step, 5);
    EXPECT_EQ(steps[2].loss, 3.5);
    EXPECT_EQ(steps[1].segment, 0);
    EXPECT_EQ(reader.rankRows(1, 6).size(), 2u);
    EXPECT_EQ(reader.rankRows(1, 6)[1].mem[MemCategory::Params], 4000);

    const auto segs = reader.segments(1);
    ASSERT_EQ(segs.size(), 1u);
    EXPECT_EQ(segs[0].start_step, 5);
    EXPECT_EQ(segs[0].world, 2);
    EXPECT_EQ(segs[0].stage, 1);
    ASSERT_EQ(reader.segments(2).size(), 1u);
    EXPECT_EQ(reader.segments(2)[0].stage, 3);

    const RunSummary s = reader.summary(1);
    EXPECT_EQ(s.steps, 7);
    EXPECT_EQ(s.last_loss, 3.5);
    EXPECT_EQ(s.median_tokens_per_s, 600.0);
    EXPECT_EQ(s.duration_s, 59.0);
    ASSERT_EQ(reader.events(1).size(), 1u);
    EXPECT_EQ(reader.events(1)[0].level, EventLevel::Warn);
}

TEST(StoreMigration, MigratedSchemaEqualsFreshSchema) {
    TempDir dir;
    const std::string oldPath = dir.file("v1.db");
    makeV1Store(oldPath);
    RunStore migrated = RunStore::open(oldPath);
    RunStore fresh = RunStore::open(dir.file("fresh.db"));
    EXPECT_EQ(migrated.db().queryInt("PRAGMA user_version"), RunStore::kSchemaVersion);
    const std::string a = describeSchema(migrated.db());
    const std::string b = describeSchema(fresh.db());
    EXPECT_NE(a.find("table segments"), std::string::npos);
    EXPECT_EQ(a, b);
    EXPECT_EQ(migrated.db().queryInt("SELECT count(*) FROM pragma_foreign_key_check"), 0);
}

TEST(StoreMigration, ReadOnlyRefusesToMigrate) {
    TempDir dir;
    const std::string path = dir.file("v1.db");
    makeV1Store(path);
    const std::string before = readBytes(path);
    try {
        RunStore::open(path, OpenMode::ReadOnly);
        FAIL() << "a v1 store opened read-only";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("older"), std::string::npos) << e.what();
    }
    EXPECT_EQ(readBytes(path), before);
}

// v4 -> v5 rebuilds the runs table (a new status, 'stalled'): every row that refers to a
// run survives it (a rebuild with foreign keys on would cascade-delete them all), the
// new status is accepted and the foreign keys still cascade afterwards.
TEST(StoreMigration, V4RowsSurviveTheRunsRebuild) {
    TempDir dir;
    const std::string path = dir.file("v4.db");
    makeV1Store(path);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        execRaw(db, "PRAGMA foreign_keys = ON");
        execRaw(db, "BEGIN; " + std::string(kMigrateV2Sql) + std::string(kMigrateV3Sql) +
                        std::string(kMigrateV4Sql) + "PRAGMA user_version = 4; COMMIT;");
        execRaw(db, "UPDATE runs SET status = 'running', pid = 1, heartbeat_at = 0 WHERE id = 2");
        sqlite3_close(db);
    }
    RunStore store = RunStore::open(path);
    EXPECT_EQ(store.db().queryInt("PRAGMA user_version"), RunStore::kSchemaVersion);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM steps"), 3);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM rank_steps"), 6);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM events"), 1);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM run_tags"), 3);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM segments"), 2);
    EXPECT_EQ(store.db().queryInt("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    EXPECT_EQ(store.db().queryInt("PRAGMA foreign_keys"), 1);
    store.db().exec("UPDATE runs SET status = 'stalled' WHERE id = 2");
    RunReader reader(std::move(store));
    EXPECT_EQ(reader.run(2).status, RunStatus::Stalled);
    EXPECT_EQ(reader.run(1).info.tags, (std::vector<std::string>{"a", "b", "c"}));
    reader.deleteRun(1);
    EXPECT_EQ(RunStore::open(path).db().queryInt("SELECT count(*) FROM rank_steps"), 0);
}
