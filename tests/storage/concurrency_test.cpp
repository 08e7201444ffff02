// A writer process and a reader process on one store file at once: the reader always
// sees whole steps (every visible step has all its rank rows) and never gets
// "database is locked", also while it writes commands and notes of its own.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
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
[[noreturn]] void writerProcess(const std::string& path, int readyFd) {
    try {
        RunWriter w(RunStore::open(path));
        const std::int64_t id = w.createRun(makeRunInfo("concurrent", kWorld));
        w.beginSegment({0, 0, kWorld, 2, 1, 4, "start"});
        const char idByte = static_cast<char>(id);
        if (write(readyFd, &idByte, 1) != 1)
            _exit(1);
        close(readyFd);
        for (int i = 0; i < kSteps; ++i) {
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
    ASSERT_EQ(pipe(pipeFds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipeFds[0]);
        writerProcess(path, pipeFds[1]);
    }
    close(pipeFds[1]);
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
