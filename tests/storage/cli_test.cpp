// zerolab-runs end to end: list (table and JSON), show, tag, note, delete, and exit
// code 2 for bad arguments and unknown runs.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace zerolab;
using namespace zerolab::test;

class StoreCli : public ::testing::Test {
protected:
    void SetUp() override {
        RunWriter w(RunStore::open(path()));
        m_id = w.createRun(makeRunInfo("cli-run", 2));
        w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
        for (int i = 0; i < 4; ++i)
            w.appendStep(makeStep(i, 2));
        w.addCheckpoint({3, "/tmp/ckpt-3", 2, 2, 0});
        w.finish(RunStatus::Finished, "done");
    }
    std::string path() const { return m_dir.file("runs.db"); }
    CliResult cli(std::vector<std::string> args) {
        args.insert(args.begin(), {"--db", path()});
        return runCli(args);
    }

    TempDir m_dir;
    std::int64_t m_id = 0;
};

TEST_F(StoreCli, ListTableAndJson) {
    const CliResult t = cli({"list"});
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find("cli-run"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("finished"), std::string::npos) << t.out;
    const CliResult j = cli({"list", "--json"});
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const auto arr = nlohmann::json::parse(j.out);
    ASSERT_EQ(arr.size(), 1u);
    EXPECT_EQ(arr[0]["id"], m_id);
    EXPECT_EQ(arr[0]["steps"], 3);
    EXPECT_EQ(arr[0]["status"], "finished");
    EXPECT_EQ(arr[0]["median_tokens_per_s"], 1001.5);
}

// A long (UTF-8) name never runs into STATUS: NAME is as wide as the longest name, up to
// 40 characters, and longer names end in an ellipsis.
TEST_F(StoreCli, ListSizesTheNameColumn) {
    {
        RunWriter w(RunStore::open(path()));
        w.createRun(makeRunInfo(std::string(50, 'n') + "-\u00e9t\u00e9-174336", 2));
        w.finish(RunStatus::Finished, "done");
    }
    const CliResult t = cli({"list"});
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_EQ(t.out.find("174336running"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find(std::string(39, 'n') + "\u2026  finished"), std::string::npos) << t.out;
    // The short name is padded to the same column.
    EXPECT_NE(t.out.find("cli-run" + std::string(40 - 7 + 2, ' ') + "finished"), std::string::npos)
        << t.out;
}

TEST_F(StoreCli, ShowByNameAndId) {
    const CliResult byName = cli({"show", "cli-run"});
    ASSERT_EQ(byName.exit_code, 0) << byName.err;
    EXPECT_NE(byName.out.find("/tmp/ckpt-3"), std::string::npos) << byName.out;
    EXPECT_NE(byName.out.find("memory at step 3"), std::string::npos) << byName.out;
    EXPECT_EQ(cli({"show", std::to_string(m_id)}).out, byName.out);
}

TEST_F(StoreCli, TagNoteDelete) {
    ASSERT_EQ(cli({"tag", "cli-run", "keep"}).exit_code, 0);
    ASSERT_EQ(cli({"note", std::to_string(m_id), "looks fine"}).exit_code, 0);
    {
        RunReader r(RunStore::open(path()));
        const RunRecord run = r.run(m_id);
        EXPECT_EQ(run.info.tags, (std::vector<std::string>{"baseline", "ci", "keep"}));
        EXPECT_EQ(run.info.notes, "looks fine");
    }
    const CliResult noYes = cli({"delete", "cli-run"});
    EXPECT_EQ(noYes.exit_code, 2) << "stdin is not a terminal: must refuse without --yes";
    ASSERT_EQ(cli({"delete", "cli-run", "--yes"}).exit_code, 0);
    RunReader r(RunStore::open(path()));
    EXPECT_TRUE(r.listRuns().empty());
}

TEST_F(StoreCli, BadInputExitsTwo) {
    const CliResult unknown = cli({"show", "no-such-run"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("no-such-run"), std::string::npos) << unknown.err;
    EXPECT_EQ(cli({"export", "cli-run", "--format", "xml"}).exit_code, 2);
    EXPECT_EQ(cli({"frobnicate"}).exit_code, 2);
    EXPECT_EQ(runCli({"--db", m_dir.file("missing.db"), "show", "1"}).exit_code, 2);
    const CliResult empty = runCli({"--db", m_dir.file("missing.db"), "list", "--json"});
    EXPECT_EQ(empty.exit_code, 0);
    EXPECT_EQ(empty.out, "[]\n");
}
