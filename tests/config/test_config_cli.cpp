// zerolab-train --check-config through the real binary: exit codes, stdout holds
// only the resolved JSON, errors on stderr prefixed with the file name.
#include "config_test_util.h"
#include "tests/support/hostile_files.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace zerolab::test {
namespace {

ProcessResult runTrain(const std::string& args) {
    return zerolab::test::runTool("zerolab-train", args);
}

const std::string kChapter =
    std::string(ZEROLAB_SOURCE_DIR) + "/resources/configs/chapter-example.json";

TEST(ConfigCli, ChapterExamplePassesWithWorld8) {
    ProcessResult r = runTrain("--check-config " + kChapter + " --world 8");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json resolved = nlohmann::json::parse(r.out); // stdout is only JSON
    EXPECT_EQ(resolved["train_micro_batch_size_per_gpu"], 32);
    EXPECT_EQ(resolved["gradient_accumulation_steps"], 4);
    EXPECT_EQ(resolved["zero_optimization"]["stage"], 1);
    EXPECT_EQ(resolved["model"]["preset"], "nano"); // defaults filled in
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(ConfigCli, ChapterExampleFailsWithWorld3) {
    ProcessResult r = runTrain("--check-config " + kChapter + " --world 3");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(kChapter + ": train_batch_size: Check batch related parameters"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("1024 != 85 * 4 * 3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not divisible by gradient_accumulation_steps 4 x world size 3 = 12"),
              std::string::npos)
        << r.err;
}

TEST(ConfigCli, EveryErrorOnStderrAndWarnings) {
    const TempDir temp("config-cli");
    const std::filesystem::path file = temp.file("bad.json");
    {
        std::ofstream out(file);
        out << R"({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": "two"},
                   "model": {"n_layers": 2}, "amp": {"enabled": true}})";
    }
    ProcessResult r = runTrain("--check-config " + file.string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(file.string() +
                         ": zero_optimization.stage: expected an integer 0-3, got \"two\""),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(file.string() + ": model.n_layers: unknown key (did you mean "
                                         "\"n_layer\"?)"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(file.string() + ": warning: amp: "), std::string::npos) << r.err;
}

TEST(ConfigCli, BadArgumentsExitTwoAndVersionExitsZero) {
    EXPECT_EQ(runTrain("--check-config " + kChapter + " --world 0").exit_code, 2);
    EXPECT_EQ(runTrain("--no-such-flag").exit_code, 2);
    EXPECT_EQ(runTrain("--check-config /nonexistent.json").exit_code, 2);
    ProcessResult v = runTrain("--version");
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_FALSE(v.out.empty());
}

// Issue 17: 1e999 exited 1 without naming the file; deep nesting crashed (SIGSEGV).
TEST(ConfigCli, HostileConfigsExitTwoNamingFileAndPath) {
    const TempDir temp("config-cli");
    const std::string overflow = temp.file("overflow.json");
    const std::string deep = temp.file("deep.json");
    writeDoubleOverflowConfig(overflow);
    writeDeepConfig(deep);
    ProcessResult r = runTrain("--check-config " + overflow);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(overflow + ": gradient_clipping: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1e999"), std::string::npos) << r.err;
    r = runTrain("--check-config " + deep);
    EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 500);
    EXPECT_NE(r.err.find(deep + ": model[0]"), std::string::npos) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 1000u);
}

} // namespace
} // namespace zerolab::test
