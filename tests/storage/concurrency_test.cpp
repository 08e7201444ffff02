// A writer process and a reader process on one store file at once: the reader always
// sees whole steps (every visible step has all its rank rows) and never gets
// "database is locked", also while it writes commands and notes of its own.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"
#include "tests/support/sqlite_lock_probe.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

using namespace zerolab;
using namespace zerolab::test;

namespace {

constexpr int kWorld = 8;
constexpr int kSteps = 3000;

// Child: writes kSteps steps; acknowledges commands as the runtime would. Exit code
// 0 on success, 1 with the error on stderr.
// goFd: the writer waits there once, after its first kGoAfter steps, until the reader
// has polled, so that the two overlap however the processes are scheduled.
constexpr int kGoAfter = 100;

[[noreturn]] void writerProcess(const std::string& path, int readyFd, int goFd) {
    try {
        RunWriter w(RunStore::open(path));
        const std::int64_t id = w.createRun(makeRunInfo("concurrent", kWorld));
        w.beginSegment({0, 0, kWorld, 2, 1, 4, "start"});
        const char idByte = static_cast<char>(id);
        if (write(readyFd, &idByte, 1) != 1)
            _exit(1);
        close(readyFd);
        for (int i = 0; i < kSteps; ++i) {
            if (i == kGoAfter) {
                char go = 0;
                if (read(goFd, &go, 1) != 1)
                    _exit(1);
                close(goFd);
            }
            w.appendStep(makeStep(i, kWorld));
            if (i % 50 == 0) {
                for (const Command& c : w.pendingCommands())
                    w.ackCommand(c.id, "ok");
                w.addEvent(EventLevel::Info, 0, "step " + std::to_string(i));
            }
        }
        w.finish(RunStatus::Finished);
        _exit(0);
    } catch (const std::exception& e) {
        fprintf(stderr, "writer process: %s\n", e.what());
        _exit(1);
    }
}

} // namespace

TEST(StoreConcurrency, ReaderSeesWholeStepsWhileWriterWrites) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    RunStore::open(path); // create the schema before the race starts

    int pipeFds[2];
    int goFds[2];
    ASSERT_EQ(pipe(pipeFds), 0);
    ASSERT_EQ(pipe(goFds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipeFds[0]);
        close(goFds[1]);
        writerProcess(path, pipeFds[1], goFds[0]);
    }
    close(pipeFds[1]);
    close(goFds[0]);
    char idByte = 0;
    ASSERT_EQ(read(pipeFds[0], &idByte, 1), 1) << "writer process failed to start";
    close(pipeFds[0]);
    const std::int64_t id = idByte;

    RunReader r(RunStore::open(path));
    // A second connection for a check no single RunReader call makes: in one statement
    // (one snapshot), every visible step row has all of its rank rows.
    RunStore raw = RunStore::open(path, OpenMode::ReadOnly);
    SqliteStatement whole(raw.db(), "SELECT s.step, (SELECT count(*) FROM rank_steps k "
                                    "WHERE k.run_id = s.run_id AND k.step = s.step) "
                                    "FROM steps s WHERE s.run_id = ?1 AND s.step > ?2");
    std::int64_t seen = -1, lastVersion = -1, polls = 0, partialPolls = 0;
    std::string readerError;
    bool writerDone = false;
    int status = 0;
    while (!writerDone) {
        writerDone = waitpid(child, &status, WNOHANG) == child;
        try {
            const std::int64_t v = r.dataVersion();
            if (v == lastVersion) {
                usleep(1000); // nothing new; leave the CPU to the writer
                continue;
            }
            lastVersion = v;
            ++polls;
            if (goFds[1] >= 0) { // the writer waits for the first poll
                const char go = 1;
                ASSERT_EQ(write(goFds[1], &go, 1), 1);
                close(goFds[1]);
                goFds[1] = -1;
            }
            // One snapshot: rank rows grouped by step must each be complete.
            std::map<std::int64_t, int> counts;
            for (const RankSample& s : r.rankSeries(id, seen))
                ++counts[s.step];
            for (const auto& [step, n] : counts)
                if (n != kWorld) {
                    ++partialPolls;
                    ADD_FAILURE() << "step " << step << " visible with " << n << " rank rows";
                }
            whole.bind(1, id).bind(2, seen);
            while (whole.step())
                if (whole.int64(1) != kWorld) {
                    ++partialPolls;
                    ADD_FAILURE() << "step row " << whole.int64(0) << " visible with "
                                  << whole.int64(1) << " rank rows";
                }
            whole.reset();
            const auto steps = r.steps(id, seen);
            if (!counts.empty())
                seen = std::min(counts.rbegin()->first, steps.empty() ? seen : steps.back().step);
            if (polls % 20 == 0) {
                r.postCommand(id, CommandKind::Checkpoint);
                r.setNotes(id, "poll " + std::to_string(polls));
                r.listRuns();
            }
        } catch (const StoreError& e) {
            // postCommand may race with finish(); anything else is a failure.
            const std::string what = e.what();
            if (what.find("commands go to running runs only") == std::string::npos)
                readerError = what;
        }
        if (!readerError.empty())
            break;
    }
    if (goFds[1] >= 0)
        close(goFds[1]); // a writer still waiting reads EOF and fails
    if (!writerDone)
        waitpid(child, &status, 0);
    EXPECT_TRUE(readerError.empty()) << readerError;
    EXPECT_EQ(readerError.find("locked"), std::string::npos);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer process failed";
    EXPECT_EQ(partialPolls, 0);
    EXPECT_GT(polls, 1) << "the reader never overlapped the writer";

    const auto all = r.steps(id);
    ASSERT_EQ(all.size(), static_cast<std::size_t>(kSteps));
    EXPECT_EQ(r.rankSeries(id).size(), static_cast<std::size_t>(kSteps * kWorld));
    EXPECT_EQ(r.run(id).status, RunStatus::Finished);
    for (const Command& c : r.commands(id))
        EXPECT_TRUE(c.ack_message.empty() || c.ack_message == "ok");
}

// Two connections in one process (the GUI's store thread and its Tune view, rank 0's
// writer and its heartbeat): opening and closing the second must leave the first's
// locks alone. POSIX drops every lock a process holds on a file when any descriptor of
// it is closed; a raw header read on a file this process already holds open did that.
TEST(StoreConcurrency, ASecondConnectionInTheProcessKeepsTheFirstsLocks) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    RunWriter w(RunStore::open(path));
    const std::int64_t id = w.createRun(makeRunInfo("held open", 2));
    w.beginSegment({0, 0, 2, 1, 1, 4, "start"});
    w.appendStep(makeStep(0, 2));
    ASSERT_TRUE(anotherProcessSeesASharedLock(path)) << "SQLite holds its lock while open";
    // A reader with an open read transaction elsewhere in the process, as the GUI has.
    RunReader longLived(RunStore::open(path, OpenMode::ReadOnly));
    ASSERT_EQ(longLived.steps(id).size(), 1u);
    for (int i = 1; i <= 20; ++i) {
        { RunReader shortLived(RunStore::open(path, OpenMode::ReadOnly)); }
        { RunWriter other(RunStore::open(path)); }
        ASSERT_NO_THROW(w.appendStep(makeStep(i, 2))) << "after reopening " << i << " times";
        ASSERT_NO_THROW(ASSERT_EQ(longLived.steps(id).size(), std::size_t(i + 1)));
    }
    // Another process checkpoints and writes meanwhile: the locks must still work.
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        try {
            RunWriter child(RunStore::open(path));
            child.attachRun(id);
            child.addEvent(EventLevel::Info, 0, "from another process");
            SqliteDb raw(path, SQLITE_OPEN_READWRITE);
            raw.queryInt("PRAGMA wal_checkpoint(PASSIVE)");
            _exit(0);
        } catch (const std::exception& e) {
            fprintf(stderr, "child: %s\n", e.what());
            _exit(1);
        }
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_NO_THROW(w.appendStep(makeStep(21, 2)));
    EXPECT_EQ(longLived.steps(id).size(), 22u);
    // The process still holds its SQLite lock on the file after all those reopenings:
    // another process asking for SQLite's exclusive range is told someone reads.
    EXPECT_TRUE(anotherProcessSeesASharedLock(path));
    // And a new process sees every step: none went to a WAL that the other process's
    // close deleted because it found no lock of ours on the file.
    const pid_t reader = fork();
    ASSERT_GE(reader, 0);
    if (reader == 0) {
        try {
            RunReader r(RunStore::open(path, OpenMode::ReadOnly));
            const std::size_t n = r.steps(id).size();
            if (n != 22) {
                fprintf(stderr, "reader process: %zu steps, expected 22\n", n);
                _exit(1);
            }
            _exit(0);
        } catch (const std::exception& e) {
            fprintf(stderr, "reader process: %s\n", e.what());
            _exit(1);
        }
    }
    ASSERT_EQ(waitpid(reader, &status, 0), reader);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
