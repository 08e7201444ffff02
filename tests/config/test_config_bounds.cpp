// Hostile configs (issue 17): numbers beyond a double, nesting deep enough to overflow a
// recursive reader, megabyte values and keys, strings holding NUL, shapes whose sizes
// overflow. Each is an error naming the JSON path, with a bounded message, never an
// exception or a crash.
#include "config_test_util.h"
#include "runtime/config/config_reader.h"
#include "tests/support/hostile_files.h"
#include "tests/support/temp_dir.h"

#include <filesystem>
#include <fstream>

namespace zerolab::test {
namespace {

namespace fs = std::filesystem;

// Long enough for the path, "expected ..., got " and a 60-byte value.
constexpr std::size_t kMaxMessage = 200;

class ConfigBounds : public ::testing::Test {
protected:
    std::string file(const std::string& name, const std::string& text = "") const {
        const std::string p = m_dir.file(name);
        if (!text.empty())
            std::ofstream(p) << text;
        return p;
    }
    TempDir m_dir{"config-bounds"};
};

// nlohmann::json nested `levels` arrays deep, built without recursion.
nlohmann::json deepArray(int levels) {
    nlohmann::json j = nlohmann::json::array();
    for (int i = 1; i < levels; ++i)
        j = nlohmann::json::array({std::move(j)});
    return j;
}

TEST_F(ConfigBounds, NumberBeyondADoubleNamesItsPath) {
    const std::string top = file("top.json");
    writeDoubleOverflowConfig(top);
    ConfigResult r = loadConfigFile(top, std::nullopt);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].path, "gradient_clipping");
    EXPECT_NE(r.diagnostics[0].message.find("1e999"), std::string::npos)
        << r.diagnostics[0].message;

    r = loadConfigFile(file("nested.json", R"({"train_batch_size": 4,
        "optimizer": {"params": {"betas": [0.9, -1e400]}}})"),
                       std::nullopt);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "optimizer.params.betas[1]", "-1e400"), nullptr) << dump(r);
}

TEST_F(ConfigBounds, DeepNestingIsRefusedWhileParsing) {
    const std::string deep = file("deep.json");
    writeDeepConfig(deep);
    const ConfigResult r = loadConfigFile(deep, std::nullopt);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].path.rfind("model[0][0]", 0), 0u) << r.diagnostics[0].path;
    EXPECT_NE(r.diagnostics[0].message.find("nested deeper than 64 levels"), std::string::npos)
        << r.diagnostics[0].message;
    EXPECT_LT(formatDiagnostic(deep, r.diagnostics[0]).size(), 600u);

    // Nesting within the bound still parses (and is then a type error).
    const ConfigResult ok = loadConfigFile(
        file("shallow.json", R"({"train_batch_size": 4, "model": [[[[1]]]]})"), std::nullopt);
    EXPECT_NE(findError(ok, "model", "expected an object, got [[[[1]]]]"), nullptr) << dump(ok);
}

TEST_F(ConfigBounds, QuotedValuesAreBoundedWhateverTheirSizeOrDepth) {
    // A document built in memory is not bounded by the parser: the message still is.
    nlohmann::json doc = {{"train_batch_size", 4}};
    doc["model"] = deepArray(100'000);
    doc["zero_optimization"] = {{"stage", std::string(1 << 20, 'x')}};
    std::string accents; // 2-byte characters: a cut at an odd byte would split one
    for (int i = 0; i < 50; ++i)
        accents += "\xC3\xA9";
    doc["optimizer"] = {{"params", {{"betas", {0.9, accents}}}}};
    doc[std::string(1 << 20, 'k')] = 1;
    const ConfigResult r = parseConfig(doc, std::nullopt, "built");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "model", "expected an object, got [[[[["), nullptr) << dump(r);
    EXPECT_NE(findError(r, "zero_optimization.stage", "got \"xxxx"), nullptr) << dump(r);
    for (const ConfigDiagnostic& d : r.diagnostics) {
        const std::string line = formatDiagnostic("built", d);
        EXPECT_LT(line.size(), kMaxMessage) << line.substr(0, kMaxMessage);
        // Cut between characters: the line is still valid UTF-8 (dump throws otherwise).
        EXPECT_NO_THROW((void)nlohmann::json(line).dump()) << line.substr(0, kMaxMessage);
    }
    EXPECT_EQ(describeJson(deepArray(100'000)).size(), 60u);
    // A message that quotes a file path whole is still capped.
    const ConfigResult path =
        parseConfig({{"train_batch_size", 4},
                     {"data", {{"type", "text"}, {"path", std::string(1 << 20, 'p')}}}},
                    std::nullopt, "built");
    ASSERT_FALSE(path.ok());
    for (const ConfigDiagnostic& d : path.diagnostics)
        EXPECT_LE(d.message.size(), 8192u);
    EXPECT_EQ(describeJson(nlohmann::json{{"a", 1}, {"b", {true, nullptr}}}),
              R"({"a":1,"b":[true,null]})");
}

TEST_F(ConfigBounds, AStringHoldingNulIsRefusedNamingItsPath) {
    // Every system call would take the path as cut at the NUL ("/tmp/x").
    const std::string cut("/tmp/x\0/elsewhere", 16);
    const ConfigResult r = parseConfig({{"train_batch_size", 4},
                                        {"csv_monitor", {{"enabled", true}, {"output_path", cut}}},
                                        {"tensorboard", {{"job_name", cut}}},
                                        {"flops_profiler", {{"output_file", cut}}}},
                                       std::nullopt, "built");
    ASSERT_FALSE(r.ok());
    for (const char* path :
         {"csv_monitor.output_path", "tensorboard.job_name", "flops_profiler.output_file"})
        EXPECT_NE(
            findError(r, path, "expected a string without NUL characters, got \"/tmp/x\\u0000"),
            nullptr)
            << path << ": " << dump(r);
}

TEST_F(ConfigBounds, AnUnknownCollectiveIsQuotedBounded) {
    const std::string op(8250, 'o');
    const ConfigResult r = parseConfig(
        {{"train_batch_size", 4}, {"comms_logger", {{"prof_ops", {op}}}}}, std::nullopt, "built");
    const ConfigDiagnostic* w = findWarning(r, "comms_logger.prof_ops[0]", "is not a collective");
    ASSERT_NE(w, nullptr) << dump(r);
    EXPECT_NE(w->message.find(describeJson(op) + " is not a collective"), std::string::npos)
        << w->message.substr(0, kMaxMessage);
    EXPECT_LT(formatDiagnostic("built", *w).size(), 2 * kMaxMessage)
        << w->message.substr(0, kMaxMessage);
}

TEST_F(ConfigBounds, VocabularyThatCannotBePaddedIsAnError) {
    const ConfigResult r = parse(R"({"train_batch_size": 4, "model": {"n_layer": 1, "n_head": 1,
        "n_embd": 8, "seq_len": 8, "vocab_size": 2147483647}})");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "model.vocab_size", "got 2147483647"), nullptr) << dump(r);

    // The largest vocabulary that pads into an int still resolves.
    const ConfigResult top = parse(R"({"train_batch_size": 4, "model": {"n_layer": 1,
        "n_head": 1, "n_embd": 8, "seq_len": 8, "vocab_size": 2147483520}})");
    ASSERT_TRUE(top.ok()) << dump(top);
    EXPECT_EQ(top.config->model.shape.padded_vocab_size, 2147483520);
}

TEST_F(ConfigBounds, ShapeWhoseParameterCountOverflowsIsAnError) {
    const ConfigResult r = parse(R"({"train_batch_size": 4, "model": {"n_layer": 2147483647,
        "n_head": 1, "n_embd": 2147483647, "seq_len": 8, "vocab_size": 256}})");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "model", "parameters"), nullptr) << dump(r);
}

} // namespace
} // namespace zerolab::test
