// A store on a read-only file system (issue 29 §7): one that was closed cleanly is read
// as it is (SQLite could not create its -shm there: "not a readable run store", and the
// GUI showed "No runs yet"); a read-write open and an edit are refused saying why.
#include "store_test_util.h"
#include "tests/support/tmpfs_mount.h"

#include "storage/run_reader.h"
#include "storage/run_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace zerolab {
namespace {

namespace fs = std::filesystem;
using namespace zerolab::test;

TEST(ReadOnlyStore, CleanlyClosedStoreOnAReadOnlyMountIsReadable) {
    TmpfsMount disk(4 << 20);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const std::string db = disk.file("runs.db");
    {
        RunWriter w(RunStore::open(db));
        w.createRun(makeRunInfo("kept", 2));
        w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
        for (int i = 0; i < 3; ++i)
            w.appendStep(makeStep(i, 2));
        w.finish(RunStatus::Finished, "done");
    }
    ASSERT_FALSE(fs::exists(db + "-wal")) << "the last close leaves no WAL";
    ASSERT_TRUE(disk.remountReadOnly()) << disk.reason();
    EXPECT_TRUE(RunStore::onReadOnlyFileSystem(db));
    EXPECT_FALSE(RunStore::onReadOnlyFileSystem(fs::temp_directory_path().string()));

    {
        RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
        const auto runs = reader.listRuns();
        ASSERT_EQ(runs.size(), 1u);
        EXPECT_EQ(runs.front().name, "kept");
        EXPECT_EQ(reader.steps(runs.front().id).size(), 3u);
    }
    try {
        RunStore::open(db, OpenMode::ReadWrite);
        ADD_FAILURE() << "opened read-write";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(db + ": on a read-only file system"),
                  std::string::npos)
            << e.what();
    }

    const auto list = runCli({"--db", db, "list"});
    EXPECT_EQ(list.exit_code, 0) << list.err;
    EXPECT_NE(list.out.find("kept"), std::string::npos) << list.out;
    EXPECT_NE(list.err.find(db + ": on a read-only file system: opened read-only"),
              std::string::npos)
        << list.err;
    const auto show = runCli({"--db", db, "show", "kept"});
    EXPECT_EQ(show.exit_code, 0) << show.err;
    const auto tag = runCli({"--db", db, "tag", "kept", "x"});
    EXPECT_EQ(tag.exit_code, 1) << tag.err;
    EXPECT_NE(tag.err.find("on a read-only file system: it cannot be changed"), std::string::npos)
        << tag.err;
    EXPECT_FALSE(fs::exists(db + "-shm"));
}

} // namespace
} // namespace zerolab
