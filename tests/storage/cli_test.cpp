// zerolab-runs end to end: list (table and JSON), show, tag, note, delete, and exit
// code 2 for bad arguments and unknown runs.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/stored_text.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

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

// How far a run got and with what batch (issue 39): list has MICRO and ACCUM (the last
// segment's) and STEPS "20/40" (run.steps of its config); show says "last 20 of 40"; a
// config without run.steps shows the step alone.
TEST_F(StoreCli, ListAndShowSayHowFarARunGotOfItsSteps) {
    std::int64_t stopped = 0;
    {
        RunWriter w(RunStore::open(path()));
        RunInfo info = makeRunInfo("half-way", 2);
        info.config_json = R"({"run":{"steps":40}})";
        stopped = w.createRun(info);
        w.beginSegment({0, 1, 2, 1, 3, 5, "start"});
        for (int i = 1; i <= 20; ++i)
            w.appendStep(makeStep(i, 2));
        w.finish(RunStatus::Stopped, "stopped by request");
    }
    const CliResult t = cli({"list"});
    ASSERT_EQ(t.exit_code, 0) << t.err;
    std::istringstream lines(t.out);
    std::string header, first, second;
    std::getline(lines, header);
    std::getline(lines, first);  // newest first: half-way
    std::getline(lines, second); // cli-run
    const std::size_t micro = header.find("MICRO  ACCUM  STEPS");
    ASSERT_NE(micro, std::string::npos) << t.out;
    EXPECT_EQ(first.substr(micro, 21), "5      3      20/40  ") << t.out;
    EXPECT_EQ(second.substr(micro, 21), "4      1      3      ") << t.out;

    const auto arr = nlohmann::json::parse(cli({"list", "--json"}).out);
    EXPECT_EQ(arr[0]["id"], stopped);
    EXPECT_EQ(arr[0]["micro_batch"], 5);
    EXPECT_EQ(arr[0]["grad_accum"], 3);
    EXPECT_EQ(arr[0]["steps"], 20);
    EXPECT_EQ(arr[0]["planned_steps"], 40);
    EXPECT_TRUE(arr[1]["planned_steps"].is_null());

    const CliResult show = cli({"show", "half-way"});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_NE(show.out.find("stopped (stopped by request)"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("steps: last 20 of 40,"), std::string::npos) << show.out;
}

TEST_F(StoreCli, ShowByNameAndId) {
    const CliResult byName = cli({"show", "cli-run"});
    ASSERT_EQ(byName.exit_code, 0) << byName.err;
    EXPECT_NE(byName.out.find("/tmp/ckpt-3"), std::string::npos) << byName.out;
    EXPECT_NE(byName.out.find("memory at step 3"), std::string::npos) << byName.out;
    EXPECT_EQ(cli({"show", std::to_string(m_id)}).out, byName.out);
}

// --db before or after the subcommand; show's memory in decimal units scaled to each
// number (as zerolab-plan, zerolab-sweep and the GUI print bytes), never "0.1" for a small one.
TEST_F(StoreCli, DbAfterTheSubcommandAndShowScalesItsUnits) {
    const CliResult after = runCli({"list", "--db", path()});
    ASSERT_EQ(after.exit_code, 0) << after.err;
    EXPECT_EQ(after.out, cli({"list"}).out);
    const CliResult show = runCli({"show", "cli-run", "--db", path()});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_EQ(show.out.find("MiB"), std::string::npos) << show.out;
    const std::string rank0 = show.out.substr(show.out.find("\n  0 "), 200);
    EXPECT_NE(rank0.find("1.00 MB"), std::string::npos) << show.out; // params, 1000003 bytes
    EXPECT_NE(rank0.find("1.07 GB"), std::string::npos) << show.out; // rss, 2^30 bytes
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

// Issue 17: whatever bytes and lengths the store holds (an older zerolab, another tool),
// every listing and export stays valid UTF-8, free of terminal escapes and bounded; an
// invalid-UTF-8 tag made `list --json` fail for the whole store.
TEST_F(StoreCli, HostileStoredTextIsShownValidAndBounded) {
    const std::string control = "\x1b[31m\x1b]0;title\x07\r\n";
    {
        RunInfo info = makeRunInfo(std::string(100'000, 'n') + "\xff\xfe" + control, 2);
        info.host = "host\xc3";
        info.tags = {"\xff tag", std::string(5000, 't'), "two\nlines"};
        info.notes = std::string(1 << 20, 'x') + "\xc3\x28" + control;
        RunWriter w(RunStore::open(path()));
        const std::int64_t id = w.createRun(info);
        w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
        w.appendStep(makeStep(0, 2));
        w.addEvent(EventLevel::Warn, 0, "bad \xe2\x82 bytes" + control);
        w.finish(RunStatus::Failed, "end \xed\xa0\x80" + control);
        RunReader r(RunStore::open(path()));
        r.addTag(id, "\xc0\xaf overlong");
    }
    const std::vector<std::vector<std::string>> commands = {
        {"list"},
        {"list", "--json"},
        {"show", "2"},
        {"show", "2", "--json"},
        {"export", "2", "--format", "csv"},
        {"export", "2", "--format", "csv", "--ranks"},
        {"export", "2", "--format", "jsonl"},
    };
    for (const auto& args : commands) {
        std::string what;
        for (const auto& a : args)
            what += a + " ";
        const CliResult r = cli(args);
        ASSERT_EQ(r.exit_code, 0) << what << r.err;
        EXPECT_FALSE(invalidUtf8At(r.out).has_value()) << what;
        EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << what;
        if (args.back() == "--json")
            EXPECT_NO_THROW((void)nlohmann::json::parse(r.out)) << what;
    }
    // The table: one line per run, none wider than its columns allow.
    std::istringstream table(cli({"list"}).out);
    int lines = 0;
    for (std::string line; std::getline(table, line); ++lines)
        EXPECT_LT(line.size(), 400u) << line.substr(0, 400);
    EXPECT_EQ(lines, 3);
}

// The entry points refuse what the store should not hold: exit 2 naming the argument,
// nothing stored.
TEST_F(StoreCli, TagAndNoteRefuseTextThatCannotBeStored) {
    const std::pair<std::vector<std::string>, std::string> refused[] = {
        {{"tag", "cli-run", "bad \xff"}, "TAG: not valid UTF-8 (byte 4)"},
        {{"tag", "cli-run", "two\nlines"}, "TAG: holds a control character"},
        {{"tag", "cli-run", std::string(kMaxTagBytes + 1, 't')}, "TAG: 129 bytes"},
        {{"note", "cli-run", "\xed\xa0\x80 surrogate"}, "TEXT: not valid UTF-8 (byte 0)"},
        {{"note", "cli-run", "\x1b[2J"}, "TEXT: holds a control character"},
    };
    for (const auto& [args, message] : refused) {
        const CliResult r = cli(args);
        EXPECT_EQ(r.exit_code, 2) << message;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
    ASSERT_EQ(cli({"note", "cli-run", "line one\n\tline two"}).exit_code, 0);
    RunReader r(RunStore::open(path()));
    const RunRecord run = r.run(m_id);
    EXPECT_EQ(run.info.tags, (std::vector<std::string>{"baseline", "ci"}));
    EXPECT_EQ(run.info.notes, "line one\n\tline two");
}
