// Faults of the store file itself: a full disk under the writer (the real error, never
// a failed ROLLBACK, and every committed step kept), a damaged store (a dropped table or
// column, a malformed page: exit 2 with the file named) and deleting a live run.
#include "storage/run_reader.h"
#include "storage/run_store.h"
#include "storage/run_uuid.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "storage/store_clock.h"
#include "store_test_util.h"
#include "tests/support/tmpfs_mount.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace zerolab;
using namespace zerolab::test;

namespace {

Segment firstSegment(int world) {
    Segment seg;
    seg.world = world;
    seg.stage = 2;
    seg.micro_batch = 4;
    seg.reason = "start";
    return seg;
}

// A real store with a few steps, checkpointed so that the main file holds everything.
std::string makeStore(const std::string& path, int steps) {
    {
        RunWriter w(RunStore::open(path));
        w.createRun(makeRunInfo("r", 2));
        w.beginSegment(firstSegment(2));
        for (int i = 0; i < steps; ++i)
            w.appendStep(makeStep(i, 2));
        w.finish(RunStatus::Finished);
    }
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    return path;
}

void rawExec(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
}

std::string openError(const std::string& path, OpenMode mode) {
    try {
        RunStore::open(path, mode);
    } catch (const StoreError& e) {
        EXPECT_FALSE(e.isIo()) << e.what();
        return e.what();
    }
    return {};
}

// Refused at open, read-write and read-only, by the library and the CLI (exit 2), with
// the file and `expect` named; the file's bytes are not changed.
void expectDamaged(const std::string& path, const std::string& expect) {
    const std::string before = readBytes(path);
    for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
        const std::string err = openError(path, mode);
        EXPECT_NE(err.find(path), std::string::npos) << err;
        EXPECT_NE(err.find(expect), std::string::npos) << err;
    }
    const CliResult cli = runCli({"--db", path, "list"});
    EXPECT_EQ(cli.exit_code, 2) << cli.out << cli.err;
    EXPECT_NE(cli.err.find(path), std::string::npos) << cli.err;
    EXPECT_NE(cli.err.find(expect), std::string::npos) << cli.err;
    EXPECT_EQ(readBytes(path), before) << "the refused file was modified";
}

} // namespace

TEST(StoreFaults, DroppedTableIsRefusedAtOpen) {
    TempDir dir;
    const std::string path = makeStore(dir.file("runs.db"), 3);
    rawExec(path, "DROP TABLE run_tags");
    expectDamaged(path, "table 'run_tags' is missing");
}

TEST(StoreFaults, DroppedColumnIsRefusedAtOpen) {
    TempDir dir;
    const std::string path = makeStore(dir.file("runs.db"), 3);
    rawExec(path, "ALTER TABLE steps DROP COLUMN mfu");
    expectDamaged(path, "table 'steps' has no column 'mfu'");
}

TEST(StoreFaults, MalformedPageExitsTwoNamingTheFile) {
    TempDir dir;
    const std::string path = makeStore(dir.file("runs.db"), 400);
    std::string bytes = readBytes(path);
    const std::size_t page = 4096;
    ASSERT_GT(bytes.size(), 20 * page);
    // A page in the middle of the file (the steps' and rank rows' b-trees) is overwritten.
    const std::size_t at = (bytes.size() / page / 2) * page;
    for (std::size_t i = at; i < at + page; ++i)
        bytes[i] = static_cast<char>(0xA5);
    writeBytes(path, bytes);
    const CliResult cli = runCli({"--db", path, "export", "1", "--format", "csv", "--ranks"});
    EXPECT_EQ(cli.exit_code, 2) << cli.err;
    EXPECT_NE(cli.err.find(path), std::string::npos) << cli.err;
    EXPECT_NE(cli.err.find("damaged"), std::string::npos) << cli.err;
}

TEST(StoreFaults, DeletingALiveRunIsRefused) {
    // By the library (the GUI's Delete) and by zerolab-runs.
    TempDir dir;
    const std::string path = dir.file("runs.db");
    RunWriter w(RunStore::open(path));
    const std::int64_t id = w.createRun(makeRunInfo("live", 2)); // fresh heartbeat
    w.beginSegment(firstSegment(2));
    w.appendStep(makeStep(0, 2));
    const CliResult del = runCli({"--db", path, "delete", std::to_string(id), "--yes"});
    EXPECT_EQ(del.exit_code, 2) << del.out << del.err;
    EXPECT_NE(del.err.find("is running or stalled: refusing to delete it"), std::string::npos)
        << del.err;
    {
        RunReader reader(RunStore::open(path));
        EXPECT_THROW(reader.deleteRun(id), StoreError);
    }
    w.appendStep(makeStep(1, 2)); // the run goes on
    w.finish(RunStatus::Finished);
    EXPECT_EQ(runCli({"--db", path, "delete", std::to_string(id), "--yes"}).exit_code, 0);
}

TEST(StoreFaults, FullDiskReportsTheRealErrorAndKeepsCommittedSteps) {
    TmpfsMount disk(200 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const std::string path = disk.file("runs.db");
    std::int64_t committed = 0;
    {
        RunWriter w(RunStore::open(path));
        w.createRun(makeRunInfo("full", 8));
        w.beginSegment(firstSegment(8));
        std::string error;
        for (std::int64_t s = 0; s < 100000 && error.empty(); ++s) {
            try {
                w.appendStep(makeStep(s, 8));
                committed = s + 1;
            } catch (const StoreError& e) {
                error = e.what();
                EXPECT_TRUE(e.isIo()) << error;
            }
        }
        ASSERT_FALSE(error.empty()) << "the disk never filled";
        EXPECT_NE(error.find("full"), std::string::npos) << error;
        EXPECT_EQ(error.find("cannot rollback"), std::string::npos) << error;
        EXPECT_NE(error.find(path), std::string::npos) << error;
        // The connection is still usable: the next step fails the same way, no worse.
        try {
            w.appendStep(makeStep(committed, 8));
            ++committed;
        } catch (const StoreError& e) {
            EXPECT_EQ(std::string(e.what()).find("cannot rollback"), std::string::npos) << e.what();
        }
    }
    ASSERT_GT(committed, 0);
    RunStore ro = RunStore::open(path, OpenMode::ReadOnly);
    EXPECT_EQ(ro.db().queryInt("SELECT count(*) FROM steps"), committed);
    EXPECT_EQ(ro.db().queryInt("SELECT count(*) FROM rank_steps"), committed * 8);
}

// Issue 29 §10: a store deleted mid-run left its -wal (27 MB in the probe) and -shm
// beside the name, belonging to no file. The run's connections (its writer and a second
// one, as rank 0's heartbeat thread holds) write on, fail or not, and close: nothing is left.
TEST(StoreFaults, DeletedStoreLeavesNoWalOrShm) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    {
        RunWriter w(RunStore::open(path));
        RunStore second = RunStore::open(path);
        w.createRun(makeRunInfo("deleted", 2));
        w.beginSegment(firstSegment(2));
        for (std::int64_t s = 0; s < 50; ++s)
            w.appendStep(makeStep(s, 2));
        ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
        std::filesystem::remove(path);
        for (std::int64_t s = 50; s < 100; ++s) {
            try {
                w.appendStep(makeStep(s, 2));
            } catch (const StoreError&) {
                break; // the writer's check of the file: "deleted or replaced"
            }
        }
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
    EXPECT_FALSE(std::filesystem::exists(path + "-shm"));
}

// Issue 29 §11, the readers: a run whose rank 0 is stopped stays `running` in the store
// (rank 0 writes it), its process alive; its heartbeat older than its collective timeout
// is shown as stalled with its age (before: `running`).
TEST(StoreFaults, SilentHeartbeatReadsAsStalledWithItsAge) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    char host[256] = "";
    ::gethostname(host, sizeof host - 1);
    RunInfo info = makeRunInfo("silent", 2);
    info.host = host;
    info.pid = ::getpid(); // alive: never marked lost
    info.config_json = R"({"run": {"collective_timeout_s": 10}})";
    std::int64_t id = 0;
    {
        RunWriter w(RunStore::open(path));
        id = w.createRun(info);
        w.beginSegment(firstSegment(2));
        w.appendStep(makeStep(0, 2));
    }
    const std::string age = "UPDATE runs SET heartbeat_at = strftime('%s', 'now') - ";
    ASSERT_EQ(execSqlite(path, age + "5"), "");
    EXPECT_FALSE(RunReader(RunStore::open(path)).heartbeatSilence(id, unixNow()));
    EXPECT_NE(runCli({"--db", path, "list"}).out.find("running"), std::string::npos);

    ASSERT_EQ(execSqlite(path, age + "100"), "");
    const auto silent = RunReader(RunStore::open(path)).heartbeatSilence(id, unixNow());
    ASSERT_TRUE(silent);
    EXPECT_GE(*silent, 99);
    const auto list = runCli({"--db", path, "list"});
    EXPECT_NE(list.out.find("stalled"), std::string::npos) << list.out;
    const auto show = runCli({"--db", path, "show", std::to_string(id)});
    EXPECT_NE(show.out.find("': stalled (no heartbeat for 1m4"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("stored as running: rank 0 is stopped or hung)"), std::string::npos)
        << show.out;
    const auto json =
        nlohmann::json::parse(runCli({"--db", path, "show", std::to_string(id), "--json"}).out);
    EXPECT_GE(json["run"]["heartbeat_silent_s"].get<double>(), 99) << json.dump();

    // Without a configured timeout, the default 120 s: 100 s is not silent yet.
    ASSERT_EQ(execSqlite(path, "UPDATE runs SET config_json = '{}'"), "");
    EXPECT_FALSE(RunReader(RunStore::open(path)).heartbeatSilence(id, unixNow()));
    ASSERT_EQ(execSqlite(path, "UPDATE runs SET config_json = 'not json'"), "");
    EXPECT_FALSE(RunReader(RunStore::open(path)).heartbeatSilence(id, unixNow()));
}

TEST(RunUuid, NewUuidsAreVersionFourAndDistinct) {
    const std::string a = newRunUuid();
    const std::string b = newRunUuid();
    EXPECT_TRUE(isRunUuid(a)) << a;
    EXPECT_TRUE(isRunUuid(b)) << b;
    EXPECT_NE(a, b);
    TempDir dir;
    RunWriter w(RunStore::open(dir.file("runs.db")));
    w.createRun(makeRunInfo("r", 2));
    EXPECT_TRUE(isRunUuid(w.runUuid()));
    EXPECT_EQ(w.findRun(w.runUuid()), w.runId());
    EXPECT_EQ(w.findRun(a), std::nullopt);
}
