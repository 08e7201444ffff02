// Exit codes that mean what they say (issue 29 §6, issue 40 §11): a tool whose stdout cannot
// be written (`> /dev/full`) exits 1 naming the error, whichever tool, subcommand or
// printing mode (--help, --version, the GUI's --print-forecast and --run-lesson); `export -o`
// writes through a temporary file renamed into place, so a failed export leaves the file
// it would have replaced whole.
#include "store_test_util.h"
#include "tests/support/tmpfs_mount.h"

#include "runtime/tune/sweep_driver.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "storage/sweep_store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace zerolab {
namespace {

namespace fs = std::filesystem;
using namespace zerolab::test;

class ToolOutput : public ::testing::Test {
protected:
    void SetUp() override {
        {
            RunWriter w(RunStore::open(db()));
            w.createRun(makeRunInfo("small", 2));
            w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
            for (int i = 0; i < 4; ++i)
                w.appendStep(makeStep(i, 2));
            w.finish(RunStatus::Finished, "done");
            w.createRun(makeRunInfo("big", 2));
            w.beginSegment({0, 0, 2, 2, 1, 4, "start"});
            for (int i = 0; i < 2000; ++i)
                w.appendStep(makeStep(i, 2));
            w.finish(RunStatus::Finished, "done");
        }
        const nlohmann::json base = {{"train_micro_batch_size_per_gpu", 1},
                                     {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
                                     {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                                     {"run", {{"steps", 5}, {"threads", 1}}}};
        std::ofstream(config()) << base.dump();
        SweepStore sweeps(RunStore::open(db()));
        createSweep(sweeps, parseSweepJson({{"base", base}, {"axes", {{"run.seed", {1, 2}}}}},
                                           m_dir.file("s.json")));
    }
    std::string db() const { return m_dir.file("runs.db"); }
    std::string config() const { return m_dir.file("nano.json"); }

    TempDir m_dir;
};

TEST_F(ToolOutput, FullStdoutExitsOneNamingTheError) {
    std::vector<std::vector<std::string>> commands = {
        {toolPath("zerolab-runs"), "--db", db(), "list"},
        {toolPath("zerolab-runs"), "--db", db(), "list", "--json"},
        {toolPath("zerolab-runs"), "--db", db(), "show", "1"},
        {toolPath("zerolab-runs"), "--db", db(), "show", "1", "--json"},
        {toolPath("zerolab-runs"), "--db", db(), "export", "1", "--format", "csv"},
        {toolPath("zerolab-sweep"), "list", "--db", db()},
        {toolPath("zerolab-sweep"), "show", "1", "--db", db()},
        {toolPath("zerolab-sweep"), "show", "1", "--json", "--db", db()},
        {toolPath("zerolab-train"), "--check-config", config()},
        {toolPath("zerolab-plan"), "--config", config()},
        {toolPath("zerolab-plan"), "--model", "nano", "--world", "2", "--json"},
        {toolPath("zerolab-train"), "--version"},
        {toolPath("zerolab-train"), "--help"},
        {toolPath("zerolab-calibrate"), "--help"},
    };
    for (const auto& argv : commands) {
        std::string line;
        for (const auto& a : argv)
            line += fs::path(a).filename().string() + " ";
        const ProcessResult fine = runProcessWithStdout(argv, "/dev/null");
        EXPECT_EQ(fine.exit_code, 0) << line << fine.err;
        const ProcessResult full = runProcessWithStdout(argv, "/dev/full");
        EXPECT_EQ(full.exit_code, 1) << line << full.err;
        EXPECT_NE(
            full.err.find(fs::path(argv[0]).filename().string() + ": cannot write to stdout: "),
            std::string::npos)
            << line << full.err;
    }
}

// A lesson of one plan step over the test's config: --run-lesson launches nothing for it.
void writePlanOnlyLesson(const std::string& config_path, const std::string& lesson_path) {
    nlohmann::json lesson = nlohmann::json::parse(R"({
        "format": 1, "id": "plan-only", "order": 900,
        "title": {"en": "A plan"}, "summary": {"en": "One plan step."},
        "steps": [{
            "id": "plan", "title": {"en": "Stage 1"}, "text": {"en": "The optimizer at N = 8."},
            "plan": {"params": 1e9, "world": 8, "stage": 1},
            "checks": [{"id": "optimizer", "label": {"en": "Optimizer states"}, "unit": "psi",
                        "quantity": "optimizer_states", "run": "plan", "formula": "12/N"}]
        }]})");
    lesson["base_config"] = nlohmann::json::parse(readBytes(config_path));
    std::ofstream(lesson_path) << lesson.dump();
}

// A store of a newer schema is invalid input to every tool: exit 2, the store unchanged
// (issue 40 §15). Before: 2 from zerolab-runs and zerolab-train, 1 from zerolab-sweep and
// zerolab-calibrate (the calibrate also only after calibrating).
TEST_F(ToolOutput, ANewerStoreIsExitTwoInEveryTool) {
    {
        RunStore store = RunStore::open(db());
        store.db().exec("PRAGMA user_version = 99");
    }
    const std::string before = readBytes(db());
    std::vector<std::vector<std::string>> commands = {
        {toolPath("zerolab-runs"), "--db", db(), "list"},
        {toolPath("zerolab-sweep"), "list", "--db", db()},
        {toolPath("zerolab-sweep"), "show", "1", "--db", db()},
        {toolPath("zerolab-sweep"), "resume", "1", "--db", db()},
        {toolPath("zerolab-train"), "--config", config(), "--db", db()},
        {toolPath("zerolab-calibrate"), "--out", m_dir.file("profile.json"), "--db", db(),
         "--allow-load"},
    };
    if (fs::exists(toolPath("zerolab"))) { // checked before the lesson runs anything
        writePlanOnlyLesson(config(), m_dir.file("plan-only.json"));
        commands.push_back({toolPath("zerolab"), "--lesson", m_dir.file("plan-only.json"),
                            "--run-lesson", "--db", db()});
    }
    for (const auto& argv : commands) {
        std::string line;
        for (const auto& a : argv)
            line += fs::path(a).filename().string() + " ";
        const ProcessResult r = runProcess(argv);
        EXPECT_EQ(r.exit_code, 2) << line << r.err;
        EXPECT_NE(r.err.find("newer than this build"), std::string::npos) << line << r.err;
    }
    EXPECT_EQ(readBytes(db()), before);
    EXPECT_FALSE(fs::exists(m_dir.file("profile.json")));
}

// The GUI's printing modes: --print-forecast, and --run-lesson on a lesson of one plan
// step (nothing launched). Before: exit 0 with the output lost (issue 40 §11).
TEST_F(ToolOutput, GuiPrintingModesExitOneOnAFullStdout) {
    if (!fs::exists(toolPath("zerolab")))
        GTEST_SKIP() << "no GUI in this build";
    writePlanOnlyLesson(config(), m_dir.file("plan-only.json"));
    const std::vector<std::vector<std::string>> commands = {
        {toolPath("zerolab"), "--print-forecast", "--config", config()},
        {toolPath("zerolab"), "--lesson", m_dir.file("plan-only.json"), "--run-lesson", "--db",
         m_dir.file("lab.db")},
    };
    for (const auto& argv : commands) {
        const ProcessResult fine = runProcessWithStdout(argv, "/dev/null");
        EXPECT_EQ(fine.exit_code, 0) << argv[1] << fine.err;
        const ProcessResult full = runProcessWithStdout(argv, "/dev/full");
        EXPECT_EQ(full.exit_code, 1) << argv[1] << full.err;
        EXPECT_NE(full.err.find("zerolab: cannot write to stdout: "), std::string::npos)
            << argv[1] << full.err;
    }
}

// The export file on a 64 KiB disk: the small run's CSV fits, the big run's does not.
// Before, the file was truncated first and left half-written.
TEST_F(ToolOutput, FailedExportLeavesThePreviousFileWhole) {
    TmpfsMount disk(64 * 1024);
    if (!disk.ok())
        GTEST_SKIP() << disk.reason();
    const std::string out = disk.file("steps.csv");
    const auto first = runCli({"--db", db(), "export", "1", "--format", "csv", "-o", out});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    const std::string before = readBytes(out);
    ASSERT_FALSE(before.empty());

    const auto big = runCli({"--db", db(), "export", "2", "--format", "csv", "-o", out});
    EXPECT_EQ(big.exit_code, 1) << big.err;
    EXPECT_NE(big.err.find(out + ": write failed"), std::string::npos) << big.err;
    EXPECT_EQ(readBytes(out), before);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(disk.path()))
        left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"steps.csv"}) << "a temporary file was left";

    // A successful export replaces the file.
    const auto again = runCli({"--db", db(), "export", "1", "--format", "jsonl", "-o", out});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(readBytes(out), before);
}

} // namespace
} // namespace zerolab
