// kill -9 of a writer process mid-run: the store then opens cleanly, holds every step
// the writer reported committed (each with all of its rank rows), passes SQLite's
// integrity check, and the run is later marked lost.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <sys/wait.h>
#include <unistd.h>

using namespace zerolab;
using namespace zerolab::test;

namespace {

constexpr int kWorld = 4;
constexpr std::int64_t kKillAfter = 1500;

// Child: writes steps forever, reporting each committed step number on `fd`.
[[noreturn]] void endlessWriter(const std::string& path, int fd) {
    try {
        RunWriter w(RunStore::open(path));
        RunInfo info = makeRunInfo("crash", kWorld);
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        info.host = host;
        info.pid = getpid();
        w.createRun(info);
        w.beginSegment({0, 0, kWorld, 1, 1, 4, "start"});
        for (std::int64_t i = 0;; ++i) {
            w.appendStep(makeStep(i, kWorld));
            if (write(fd, &i, sizeof i) != sizeof i)
                _exit(1);
        }
    } catch (const std::exception& e) {
        fprintf(stderr, "writer process: %s\n", e.what());
        _exit(1);
    }
}

} // namespace

TEST(StoreCrash, KillNineKeepsEveryCommittedStep) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(fds[0]);
        endlessWriter(path, fds[1]);
    }
    close(fds[1]);
    std::int64_t step = -1, lastReported = -1;
    while (lastReported < kKillAfter && read(fds[0], &step, sizeof step) == sizeof step)
        lastReported = step;
    ASSERT_EQ(lastReported, kKillAfter) << "writer process stopped early";
    ASSERT_EQ(kill(child, SIGKILL), 0);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    while (read(fds[0], &step, sizeof step) == sizeof step)
        lastReported = step;
    close(fds[0]);

    {
        RunStore ro = RunStore::open(path, OpenMode::ReadOnly);
        SqliteStatement check(ro.db(), "PRAGMA integrity_check");
        ASSERT_TRUE(check.step());
        EXPECT_EQ(check.text(0), "ok");
    }
    RunReader r(RunStore::open(path));
    const auto runs = r.listRuns();
    ASSERT_EQ(runs.size(), 1u);
    const std::int64_t id = runs[0].id;
    const auto steps = r.steps(id);
    ASSERT_GE(static_cast<std::int64_t>(steps.size()), lastReported + 1);
    // At most the step in flight beyond what was reported.
    EXPECT_LE(static_cast<std::int64_t>(steps.size()), lastReported + 2);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(steps.size()); ++i)
        ASSERT_EQ(steps[i].step, i);
    EXPECT_EQ(r.rankSeries(id).size(), steps.size() * kWorld);
    EXPECT_EQ(runs[0].status, RunStatus::Running);
    EXPECT_EQ(r.markLostRuns(-1), (std::vector<std::int64_t>{id}));
    EXPECT_EQ(r.run(id).status, RunStatus::Lost);
}
