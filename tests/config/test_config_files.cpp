// The shipped configs in resources/configs/ and the round trip toJson -> parseConfig,
// plus loading files: missing files and JSON syntax errors name the file and position.
#include "config_test_util.h"
#include "tests/support/hostile_files.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace zerolab::test {
namespace {

const std::filesystem::path kConfigDir =
    std::filesystem::path(ZEROLAB_SOURCE_DIR) / "resources" / "configs";

std::vector<std::filesystem::path> shippedConfigs() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(kConfigDir))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(ConfigFiles, EveryShippedConfigParsesWithoutDiagnostics) {
    const auto files = shippedConfigs();
    ASSERT_GE(files.size(), 6u); // chapter-example, default, one per stage
    for (const auto& f : files) {
        ConfigResult r = loadConfigFile(f.string(), std::nullopt);
        EXPECT_TRUE(r.ok()) << f << "\n" << dump(r);
        EXPECT_TRUE(r.diagnostics.empty()) << f << "\n" << dump(r);
    }
}

TEST(ConfigFiles, DefaultIsNanoSyntheticTwoRanksStageOne) {
    ConfigResult r = loadConfigFile((kConfigDir / "default.json").string(), std::nullopt);
    ASSERT_TRUE(r.ok()) << dump(r);
    const TrainConfig& c = *r.config;
    EXPECT_EQ(c.model.preset, "nano");
    EXPECT_EQ(c.data.type, DataType::Synthetic);
    EXPECT_EQ(c.batch.world, 2);
    EXPECT_EQ(c.zero.stage, 1);
    EXPECT_EQ(c.precision, Precision::Fp32);
    EXPECT_EQ(c.run.log_every, 1);
    EXPECT_EQ(c.run.steps, 200);
}

TEST(ConfigFiles, StagePresetsCoverEveryStageOnMicro) {
    for (int stage = 0; stage <= 3; ++stage) {
        auto file = kConfigDir / ("micro-stage" + std::to_string(stage) + ".json");
        ConfigResult r = loadConfigFile(file.string(), std::nullopt);
        ASSERT_TRUE(r.ok()) << file << "\n" << dump(r);
        EXPECT_EQ(r.config->zero.stage, stage);
        EXPECT_EQ(r.config->model.preset, "micro");
        EXPECT_EQ(r.config->batch.micro_batch, 8);
    }
}

TEST(ConfigFiles, ChapterExampleIsTheChaptersJson) {
    std::ifstream in(kConfigDir / "chapter-example.json");
    const nlohmann::json doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc["train_batch_size"], 1024);
    EXPECT_EQ(doc["gradient_accumulation_steps"], 4);
    EXPECT_EQ(doc["optimizer"]["type"], "Adam");
    EXPECT_EQ(doc["zero_optimization"]["stage"], 1);
    EXPECT_FALSE(doc.contains("train_micro_batch_size_per_gpu"));
    ConfigResult r8 = parseConfig(doc, 8, "chapter-example.json");
    ASSERT_TRUE(r8.ok()) << dump(r8);
    EXPECT_EQ(r8.config->batch.micro_batch, 32);
    EXPECT_FALSE(r8.config->zero.reduce_scatter);
    EXPECT_DOUBLE_EQ(r8.config->optimizer.lr, 1e-4);
    ConfigResult r3 = parseConfig(doc, 3, "chapter-example.json");
    ASSERT_FALSE(r3.ok());
    EXPECT_NE(findError(r3, "train_batch_size", "1024 != 85 * 4 * 3"), nullptr) << dump(r3);
}

TEST(ConfigFiles, RoundTripEveryShippedConfig) {
    for (const auto& f : shippedConfigs()) {
        for (std::optional<int> world : {std::optional<int>(), std::optional<int>(8)}) {
            ConfigResult r = loadConfigFile(f.string(), world);
            if (!r.ok())
                continue; // e.g. a preset whose batch does not split over 8 ranks
            const TrainConfig& c = *r.config;
            ConfigResult back = parseConfig(toJson(c), std::nullopt, "round-trip");
            ASSERT_TRUE(back.ok()) << f << "\n" << dump(back);
            EXPECT_EQ(*back.config, c) << f;
            EXPECT_TRUE(back.diagnostics.empty()) << dump(back);
            // Through text as well: doubles must survive dump and parse exactly.
            ConfigResult text =
                parseConfig(nlohmann::json::parse(toJson(c).dump()), c.batch.world, "round-trip");
            ASSERT_TRUE(text.ok()) << dump(text);
            EXPECT_EQ(*text.config, c) << f;
        }
    }
}

TEST(ConfigFiles, RoundTripOfNonDefaultValues) {
    auto r = parse(R"({"train_batch_size": 24, "gradient_accumulation_steps": 2,
        "optimizer": {"type": "Adam", "params": {"lr": 0.00123, "betas": [0.8, 0.95],
                      "eps": 1e-6, "weight_decay": 0.1, "adam_w_mode": false}},
        "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 500,
                      "warmup_num_steps": 20, "warmup_type": "linear",
                      "warmup_min_ratio": 0.05, "cos_min_ratio": 0.1}},
        "gradient_clipping": 1.0, "bf16": {"enabled": true},
        "data_types": {"grad_accum_dtype": "fp32"},
        "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 12345,
                              "allgather_bucket_size": 777, "contiguous_gradients": false},
        "steps_per_print": 3, "wall_clock_breakdown": true,
        "model": {"n_layer": 3, "n_head": 2, "n_embd": 32, "seq_len": 48, "vocab_size": 1000},
        "data": {"type": "synthetic"},
        "run": {"steps": 500, "seed": 42, "device": "cuda", "log_every": 5,
                "checkpoint_every": 100, "checkpoint_dir": "/tmp/ck", "threads": 2,
                "timeline_every": 4, "on_checkpoint_error": "stop"}})",
                   3);
    ASSERT_TRUE(r.ok()) << dump(r);
    ConfigResult back = parseConfig(toJson(*r.config), std::nullopt, "round-trip");
    ASSERT_TRUE(back.ok()) << dump(back);
    EXPECT_EQ(*back.config, *r.config);
    EXPECT_TRUE(back.config->grad_accum_fp32);
    EXPECT_EQ(back.config->batch.world, 3);
    EXPECT_EQ(back.config->model.shape.padded_vocab_size, 1024);
}

// The stored resolved config keeps ZeRO++ and the hosts: the Lab and every reader of the
// store plan a run from it (planInputFromConfig), so a key toJson drops is a run planned
// without it (lesson 8 planned 0 bytes across hosts and no hpZ shard).
TEST(ConfigFiles, RoundTripOfZeroPPAndRanksPerHost) {
    auto r = parse(R"({"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true},
        "zero_optimization": {"stage": 3, "zero_quantized_weights": true,
                              "zero_hpz_partition_size": 2, "zero_quantized_gradients": true},
        "model": {"preset": "nano", "seq_len": 16}, "data": {"type": "synthetic"},
        "run": {"ranks_per_host": 2}})",
                   4);
    ASSERT_TRUE(r.ok()) << dump(r);
    const nlohmann::json j = toJson(*r.config);
    EXPECT_EQ(j["zero_optimization"]["zero_hpz_partition_size"], 2);
    EXPECT_EQ(j["run"]["ranks_per_host"], 2);
    ConfigResult back = parseConfig(nlohmann::json::parse(j.dump()), 4, "round-trip");
    ASSERT_TRUE(back.ok()) << dump(back);
    EXPECT_EQ(*back.config, *r.config);
    EXPECT_TRUE(back.config->zero.quantized_weights);
    EXPECT_TRUE(back.config->zero.quantized_gradients);
    EXPECT_EQ(back.config->zero.hpz_partition_size, 2);
    EXPECT_EQ(back.config->run.ranks_per_host, 2);
}

TEST(ConfigFiles, MissingFileNamesIt) {
    ConfigResult r = loadConfigFile("/nonexistent/zerolab.json", std::nullopt);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(formatDiagnostic("/nonexistent/zerolab.json", r.diagnostics[0]),
              "/nonexistent/zerolab.json: cannot read config file: cannot open: No such file or "
              "directory");
}

// Issue 17 §4 / docs/reliability.md: a config was read whole, whatever its size or kind
// (`--config /dev/zero` read forever). Now only a regular file of at most 16 MiB is read.
TEST(ConfigFiles, OversizedOrNonRegularFileIsRefusedBeforeReading) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("zerolab_config_bounds_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string big = (dir / "big.json").string();
    {
        std::ofstream out(big, std::ios::binary);
        out << '{' << std::string(std::size_t{16} << 20, ' ') << '}';
    }
    const std::string fifo = (dir / "fifo.json").string();
    zerolab::test::makeFifo(fifo);
    const std::pair<std::string, std::string> cases[] = {
        {big, "cannot read config file: larger than 16 MiB (16777218 bytes)"},
        {"/dev/null", "cannot read config file: not a regular file"},
        {dir.string(), "cannot read config file: not a regular file"},
    };
    for (const auto& [file, expected] : cases) {
        ConfigResult r = loadConfigFile(file, std::nullopt);
        ASSERT_FALSE(r.ok()) << file;
        ASSERT_EQ(r.diagnostics.size(), 1u) << file << "\n" << dump(r);
        EXPECT_EQ(formatDiagnostic(file, r.diagnostics[0]), file + ": " + expected);
    }
    std::optional<ConfigResult> fromFifo;
    EXPECT_TRUE(zerolab::test::returnsWithoutWaitingOnFifo(
        fifo, [&] { fromFifo = loadConfigFile(fifo, std::nullopt); }));
    ASSERT_TRUE(fromFifo && !fromFifo->ok());
    EXPECT_EQ(fromFifo->diagnostics.at(0).message, "cannot read config file: not a regular file");
    std::filesystem::remove_all(dir);
}

TEST(ConfigFiles, SyntaxErrorGivesLineAndColumn) {
    const auto file = std::filesystem::temp_directory_path() / "zerolab_config_syntax.json";
    {
        std::ofstream out(file);
        out << "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\"stage\": 1,}\n}\n";
    }
    ConfigResult r = loadConfigFile(file.string(), std::nullopt);
    std::filesystem::remove(file);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_NE(r.diagnostics[0].message.find("line 3, column 36: invalid JSON"), std::string::npos)
        << r.diagnostics[0].message;
}

TEST(ConfigFiles, LoadOrThrowCarriesEveryError) {
    const auto file = std::filesystem::temp_directory_path() / "zerolab_config_throw.json";
    {
        std::ofstream out(file);
        out << R"({"train_batch_size": 8, "zero_optimization": {"stage": 9}, "run": {"stpes": 1}})";
    }
    try {
        loadConfigOrThrow(file.string(), 3);
        FAIL() << "expected ConfigError";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.diagnostics().size(), 3u);
        EXPECT_NE(std::string(e.what()).find(file.string() + ": zero_optimization.stage"),
                  std::string::npos)
            << e.what();
    }
    std::filesystem::remove(file);
}

} // namespace
} // namespace zerolab::test
