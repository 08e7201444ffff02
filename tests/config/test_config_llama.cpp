// The Llama family in the config's "model" section (issue 36 item 4): the attention
// kernel and its per-family default, a custom Llama shape and its checks, the Llama keys
// refused for GPT-2, presets up to their context, and model.hf_config: every shipped
// config.json maps to exactly its preset, with the published parameter count.
#include "tests/config/config_test_util.h"
#include "tests/support/temp_dir.h"

#include "runtime/config/hf_shape.h"
#include "runtime/model/family.h"

#include <gtest/gtest.h>

#include <fstream>

namespace zerolab {
namespace {

using test::dump;
using test::findError;
using test::parse;
using test::withBatch;

std::string modelsDir() {
    return std::string(ZEROLAB_SOURCE_DIR) + "/resources/models/";
}

// resources/models/README.md's table.
struct Published {
    const char* name;
    std::int64_t psi;
};
constexpr Published kPublished[] = {
    {"llama-3.2-1b", 1'235'814'400},     {"llama-3.2-3b", 3'212'749'824},
    {"llama-3.1-8b", 8'030'261'248},     {"llama-3.1-70b", 70'553'706'496},
    {"llama-3.1-405b", 405'853'388'800}, {"qwen2.5-0.5b", 494'032'768},
    {"qwen2.5-7b", 7'615'616'512},       {"mistral-7b-v0.1", 7'241'732'096},
};

// A custom Llama shape with `extra` members.
std::string customLlama(const std::string& extra = "") {
    return withBatch(R"("model": {"family": "llama", "n_layer": 2, "n_head": 4, "n_embd": 64,
        "vocab_size": 256, "seq_len": 32, "intermediate_size": 176)" +
                     (extra.empty() ? "" : ", " + extra) + "}");
}

TEST(ConfigLlama, GptTwoKeepsTheStandardKernelUnlessFlashIsAsked) {
    auto nano = parse(withBatch(R"("model": {"preset": "nano"})"));
    ASSERT_TRUE(nano.ok()) << dump(nano);
    EXPECT_EQ(nano.config->model.shape.attention, AttentionKernel::Standard);
    EXPECT_EQ(nano.config->model.shape, *findModelPreset("nano"));
    auto custom = parse(withBatch(
        R"("model": {"n_layer": 2, "n_head": 2, "n_embd": 64, "vocab_size": 256, "seq_len": 64})"));
    ASSERT_TRUE(custom.ok()) << dump(custom);
    EXPECT_EQ(custom.config->model.shape.attention, AttentionKernel::Standard);

    auto flash = parse(withBatch(R"("model": {"preset": "nano", "attention": "flash"})"));
    ASSERT_TRUE(flash.ok()) << dump(flash);
    EXPECT_EQ(flash.config->model.shape.attention, AttentionKernel::Flash);
    EXPECT_TRUE(flash.config->model.shape.sameModel(*findModelPreset("nano")));

    auto bad = parse(withBatch(R"("model": {"preset": "nano", "attention": "paged"})"));
    EXPECT_NE(findError(bad, "model.attention", "paged"), nullptr) << dump(bad);
}

TEST(ConfigLlama, LlamaIsFlashByDefaultAndStandardIsRefusedSayingWhy) {
    auto preset = parse(withBatch(R"("model": {"preset": "llama-nano"})"));
    ASSERT_TRUE(preset.ok()) << dump(preset);
    EXPECT_EQ(preset.config->model.shape, *findModelPreset("llama-nano"));
    EXPECT_EQ(preset.config->model.shape.attention, AttentionKernel::Flash);

    auto standard =
        parse(withBatch(R"("model": {"preset": "llama-nano", "attention": "standard"})"));
    EXPECT_NE(findError(standard, "model.attention", "grouped-query attention"), nullptr)
        << dump(standard);
    auto custom = parse(customLlama(R"("attention": "standard")"));
    EXPECT_NE(findError(custom, "model.attention", "\"standard\" is not available"), nullptr)
        << dump(custom);
}

TEST(ConfigLlama, ACustomLlamaShapeTakesLlamaConfigsDefaults) {
    auto r = parse(customLlama());
    ASSERT_TRUE(r.ok()) << dump(r);
    const ModelShape& s = r.config->model.shape;
    EXPECT_EQ(s.family, Family::Llama);
    EXPECT_EQ(s.n_kv_head, 4);
    EXPECT_EQ(s.head_dim, 16);
    EXPECT_EQ(s.ffn_dim, 176);
    EXPECT_EQ(s.padded_vocab_size, 256);
    EXPECT_FALSE(s.tied_head);
    EXPECT_FALSE(s.qkv_bias);
    EXPECT_EQ(s.rope_theta, 10000.0);
    EXPECT_EQ(s.norm_eps, 1e-6);
    EXPECT_EQ(s.attention, AttentionKernel::Flash);
    EXPECT_EQ(r.config->model.seq_len, 32);

    auto given = parse(customLlama(R"("n_kv_head": 2, "head_dim": 32, "tie_word_embeddings": true,
        "qkv_bias": true, "rope_theta": 500000, "rms_norm_eps": 1e-5)"));
    ASSERT_TRUE(given.ok()) << dump(given);
    const ModelShape& g = given.config->model.shape;
    EXPECT_EQ(g.n_kv_head, 2);
    EXPECT_EQ(g.head_dim, 32); // n_head x head_dim (128) need not be n_embd
    EXPECT_TRUE(g.tied_head);
    EXPECT_TRUE(g.qkv_bias);
    EXPECT_EQ(g.rope_theta, 500000.0);
    EXPECT_EQ(g.norm_eps, 1e-5);
    // psi from the family's tensors: embedding 256x64; per layer q 128x64 + its bias, k and
    // v 64x64 + theirs, o 64x128, MLP 3x176x64, two norms; the final norm; tied: no head.
    const std::int64_t layer =
        128 * 64 + 128 + 2 * (64 * 64 + 64) + 64 * 128 + 3 * 176 * 64 + 2 * 64;
    EXPECT_EQ(paramCount(g), 256 * 64 + 2 * layer + 64);
}

TEST(ConfigLlama, EachBadLlamaKeyIsNamedWithItsValue) {
    struct Case {
        std::string extra, path, fragment;
    };
    const Case cases[] = {
        {R"("n_kv_head": 3)", "model.n_kv_head", "3 does not divide n_head 4"},
        {R"("n_kv_head": 8)", "model.n_kv_head", "8 does not divide n_head 4"},
        {R"("n_kv_head": 0)", "model.n_kv_head", "got 0"},
        {R"("head_dim": 15)", "model.head_dim", "head_dim 15 is odd"},
        {R"("intermediate_size": -1)", "model.intermediate_size", "got -1"},
        {R"("rope_theta": 0)", "model.rope_theta", "expected a number > 0, got 0"},
        {R"("rms_norm_eps": -1e-5)", "model.rms_norm_eps", "expected a number > 0"},
        {R"("qkv_bias": "yes")", "model.qkv_bias", "true or false"},
        {R"("padded_vocab_size": 384)", "model.padded_vocab_size",
         "384 differs from vocab_size 256"},
        {R"("family": "mamba")", "model.family", "mamba"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.extra);
        std::string text = customLlama(c.extra);
        if (c.extra.find("intermediate_size") != std::string::npos)
            text = withBatch(R"("model": {"family": "llama", "n_layer": 2, "n_head": 4,
                "n_embd": 64, "vocab_size": 256, "seq_len": 32, )" +
                             c.extra + "}");
        if (c.extra.find("family") != std::string::npos)
            text = withBatch(R"("model": {"n_layer": 2, "n_head": 4, "n_embd": 64,
                "vocab_size": 256, "seq_len": 32, )" +
                             c.extra + "}");
        auto r = parse(text);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(findError(r, c.path, c.fragment), nullptr) << dump(r);
    }
    auto no_ffn = parse(withBatch(R"("model": {"family": "llama", "n_layer": 2, "n_head": 4,
        "n_embd": 64, "vocab_size": 256, "seq_len": 32})"));
    EXPECT_NE(findError(no_ffn, "model.intermediate_size", "required for a custom Llama shape"),
              nullptr)
        << dump(no_ffn);
    auto indivisible = parse(withBatch(R"("model": {"family": "llama", "n_layer": 2, "n_head": 3,
        "n_embd": 64, "vocab_size": 256, "seq_len": 32, "intermediate_size": 64})"));
    EXPECT_NE(findError(indivisible, "model.n_embd", "or give model.head_dim"), nullptr)
        << dump(indivisible);
}

TEST(ConfigLlama, LlamaKeysAreRefusedForGptTwoNamingTheKey) {
    for (const char* key : {R"("n_kv_head": 2)", R"("head_dim": 32)", R"("intermediate_size": 8)",
                            R"("tie_word_embeddings": true)", R"("qkv_bias": false)",
                            R"("rope_theta": 10000)", R"("rms_norm_eps": 1e-5)"}) {
        SCOPED_TRACE(key);
        const std::string name = std::string(key).substr(1, std::string(key).find('"', 1) - 1);
        auto preset = parse(withBatch(std::string(R"("model": {"preset": "nano", )") + key + "}"));
        EXPECT_NE(
            findError(preset, "model." + name, "a key of the Llama family, and preset \"nano\""),
            nullptr)
            << dump(preset);
        auto custom = parse(withBatch(std::string(R"("model": {"n_layer": 2, "n_head": 2,
            "n_embd": 64, "vocab_size": 256, "seq_len": 64, )") +
                                      key + "}"));
        EXPECT_NE(findError(custom, "model." + name, "this custom shape is a GPT-2 model"), nullptr)
            << dump(custom);
    }
    auto family = parse(withBatch(R"("model": {"preset": "nano", "family": "llama"})"));
    EXPECT_NE(
        findError(family, "model.family", "\"llama\" differs from preset \"nano\" (\"gpt2\")"),
        nullptr)
        << dump(family);
}

TEST(ConfigLlama, APresetsLlamaKeysMayOnlyRepeatIt) {
    auto same = parse(withBatch(R"("model": {"preset": "llama-3.1-8b", "n_kv_head": 8,
        "head_dim": 128, "intermediate_size": 14336, "tie_word_embeddings": false,
        "rope_theta": 500000.0, "rms_norm_eps": 1e-5, "family": "llama", "seq_len": 4096})"));
    ASSERT_TRUE(same.ok()) << dump(same);
    EXPECT_EQ(same.config->model.shape, *findModelPreset("llama-3.1-8b"));
    auto other = parse(withBatch(R"("model": {"preset": "llama-3.1-8b", "n_kv_head": 4,
        "tie_word_embeddings": true, "rope_theta": 10000})"));
    EXPECT_NE(findError(other, "model.n_kv_head", "4 differs from preset \"llama-3.1-8b\" (8)"),
              nullptr)
        << dump(other);
    EXPECT_NE(findError(other, "model.tie_word_embeddings", "true differs"), nullptr)
        << dump(other);
    EXPECT_NE(findError(other, "model.rope_theta", "10000 differs"), nullptr) << dump(other);
}

TEST(ConfigLlama, SeqLenReachesThePresetsContext) {
    auto r = parse(withBatch(R"("model": {"preset": "llama-3.1-8b", "seq_len": 131072})"));
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->model.seq_len, 131072);
    auto d = parse(withBatch(R"("model": {"preset": "llama-3.1-8b"})"));
    ASSERT_TRUE(d.ok()) << dump(d);
    EXPECT_EQ(d.config->model.seq_len, 131072);
    auto over = parse(withBatch(R"("model": {"preset": "llama-3.1-8b", "seq_len": 131073})"));
    EXPECT_NE(findError(over, "model.seq_len", "131073 exceeds the maximum context 131072"),
              nullptr)
        << dump(over);
}

TEST(ConfigLlama, TheResolvedConfigReadsBackToItself) {
    for (const std::string& text :
         {withBatch(R"("model": {"preset": "llama-3.1-8b", "seq_len": 2048})"),
          withBatch(R"("model": {"preset": "qwen2.5-0.5b"})"),
          withBatch(R"("model": {"preset": "nano", "attention": "flash"})"),
          customLlama(R"("n_kv_head": 2, "qkv_bias": true, "rope_theta": 123456.5)"),
          withBatch(R"("model": {"hf_config": ")" + modelsDir() + R"(mistral-7b-v0.1/config.json",
              "seq_len": 1024})")}) {
        SCOPED_TRACE(text);
        auto r = parse(text);
        ASSERT_TRUE(r.ok()) << dump(r);
        auto back = parseConfig(toJson(*r.config), std::nullopt, "resolved.json");
        ASSERT_TRUE(back.ok()) << test::dump(back);
        EXPECT_EQ(*back.config, *r.config);
    }
}

// Item 2 of issue 36: each shipped config.json is exactly its preset, and psi is the
// published count (paramCount, from the family's tensors).
TEST(ConfigLlama, EveryShippedConfigJsonIsExactlyItsPreset) {
    for (const Published& p : kPublished) {
        SCOPED_TRACE(p.name);
        const std::string file = modelsDir() + p.name + "/config.json";
        const ModelShape s = readHfModelShape(file);
        const auto preset = findModelPreset(p.name);
        ASSERT_TRUE(preset.has_value());
        EXPECT_EQ(s, *preset);
        EXPECT_EQ(paramCount(s), p.psi);

        auto r = parse(withBatch(R"("model": {"hf_config": ")" + file + R"("})"));
        ASSERT_TRUE(r.ok()) << dump(r);
        EXPECT_EQ(r.config->model.shape, *preset);
        EXPECT_EQ(r.config->model.hf_config, file);
        EXPECT_EQ(r.config->model.seq_len, preset->seq_len);
        // The preset beside its own config.json is the same model.
        auto both = parse(withBatch(R"("model": {"hf_config": ")" + file + R"(", "preset": ")" +
                                    p.name + R"("})"));
        EXPECT_TRUE(both.ok()) << dump(both);
    }
}

TEST(ConfigLlama, EveryLlamaPresetWritesAConfigJsonThatReadsBackToIt) {
    for (const ModelPreset& p : modelPresets()) {
        if (p.shape.family != Family::Llama)
            continue;
        SCOPED_TRACE(std::string(p.name));
        const HfModelConfig c = parseHfConfig(hfConfigJson(p.shape).dump(), "exported.json");
        EXPECT_EQ(hfModelShape(c), p.shape);
    }
}

TEST(ConfigLlama, HfConfigRefusalsNameTheFileAndTheField) {
    const std::string mistral = modelsDir() + "mistral-7b-v0.1/config.json";
    auto window =
        parse(withBatch(R"("model": {"hf_config": ")" + mistral + R"(", "seq_len": 8192})"));
    EXPECT_NE(findError(window, "model.seq_len", "exceeds the sliding window (4096)"), nullptr)
        << dump(window);
    const std::string llama = modelsDir() + "llama-3.2-1b/config.json";
    auto positions =
        parse(withBatch(R"("model": {"hf_config": ")" + llama + R"(", "seq_len": 200000})"));
    EXPECT_NE(findError(positions, "model.seq_len", "max_position_embeddings (131072)"), nullptr)
        << dump(positions);
    auto other =
        parse(withBatch(R"("model": {"hf_config": ")" + llama + R"(", "preset": "llama-3.2-3b"})"));
    EXPECT_NE(findError(other, "model.preset", "preset \"llama-3.2-3b\" differs from the shape in"),
              nullptr)
        << dump(other);
    auto gpt = parse(withBatch(R"("model": {"hf_config": ")" + llama + R"(", "n_layer": 4})"));
    EXPECT_NE(findError(gpt, "model.n_layer", "4 differs from the shape in " + llama + " (16)"),
              nullptr)
        << dump(gpt);

    test::TempDir dir("hf-config");
    const std::string bad = dir.file("config.json");
    std::ofstream(bad) << R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 3, "vocab_size": 256})";
    auto field = parse(withBatch(R"("model": {"hf_config": ")" + bad + R"("})"));
    EXPECT_NE(findError(field, "model.hf_config", bad + ": num_key_value_heads: 3 does not divide"),
              nullptr)
        << dump(field);
    std::ofstream(bad) << R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "vocab_size": 256, "pad_token_id": 0})";
    auto pad = parse(withBatch(R"("model": {"hf_config": ")" + bad + R"("})"));
    EXPECT_NE(findError(pad, "model.hf_config", bad + ": pad_token_id: 0 is not supported"),
              nullptr)
        << dump(pad);
    auto missing =
        parse(withBatch(R"("model": {"hf_config": ")" + dir.file("none.json") + R"("})"));
    EXPECT_NE(findError(missing, "model.hf_config", dir.file("none.json")), nullptr)
        << dump(missing);
}

} // namespace
} // namespace zerolab
