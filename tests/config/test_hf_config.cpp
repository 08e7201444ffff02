// Hugging Face config.json (runtime/config/hf_config.h): every shipped preset parsed, its
// parameter count by an independent textbook formula equal to issue 36's table, the
// architectures' defaults as transformers sets them, RoPE's inverse frequencies, and an
// error naming the file, the field and the value for each refused input.
#include "runtime/config/hf_config.h"
#include "tests/support/hostile_files.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>

namespace zerolab {
namespace {

std::string presetPath(const std::string& name) {
    return std::string(ZEROLAB_SOURCE_DIR) + "/resources/models/" + name + "/config.json";
}

// The textbook count, written from the fields alone and independently of any model
// code: embedding V*h; per layer q h*(heads*hd), k and v 2*h*(kv*hd), o (heads*hd)*h,
// the SwiGLU MLP 3*h*ffn, two RMSNorm weights 2*h, plus Qwen2's q/k/v biases
// (heads*hd + 2*kv*hd); the final norm h; an untied head V*h.
std::int64_t textbookPsi(const HfModelConfig& c) {
    const std::int64_t h = c.hidden_size, q = c.num_attention_heads * c.head_dim,
                       kv = c.num_key_value_heads * c.head_dim;
    std::int64_t layer = h * q + 2 * h * kv + q * h + 3 * h * c.intermediate_size + 2 * h;
    if (c.qkv_bias)
        layer += q + 2 * kv;
    const std::int64_t embed = c.vocab_size * h;
    return embed + c.num_hidden_layers * layer + h + (c.tie_word_embeddings ? 0 : embed);
}

struct Preset {
    const char* name;
    std::int64_t psi; // issue 36's table
    HfArchitecture arch;
    bool tied;
};

constexpr Preset kPresets[] = {
    {"llama-3.2-1b", 1'235'814'400, HfArchitecture::Llama, true},
    {"llama-3.2-3b", 3'212'749'824, HfArchitecture::Llama, true},
    {"llama-3.1-8b", 8'030'261'248, HfArchitecture::Llama, false},
    {"llama-3.1-70b", 70'553'706'496, HfArchitecture::Llama, false},
    {"llama-3.1-405b", 405'853'388'800, HfArchitecture::Llama, false},
    {"qwen2.5-0.5b", 494'032'768, HfArchitecture::Qwen2, true},
    {"qwen2.5-7b", 7'615'616'512, HfArchitecture::Qwen2, false},
    {"mistral-7b-v0.1", 7'241'732'096, HfArchitecture::Mistral, false},
};

TEST(HfConfig, EveryShippedPresetGivesThePublishedParameterCount) {
    for (const Preset& p : kPresets) {
        SCOPED_TRACE(p.name);
        const HfModelConfig c = readHfConfig(presetPath(p.name));
        EXPECT_EQ(c.architecture, p.arch);
        EXPECT_EQ(c.tie_word_embeddings, p.tied);
        EXPECT_EQ(c.qkv_bias, p.arch == HfArchitecture::Qwen2);
        EXPECT_FALSE(c.o_bias);
        EXPECT_FALSE(c.mlp_bias);
        EXPECT_EQ(c.hidden_act, "silu");
        EXPECT_EQ(c.torch_dtype, "bfloat16");
        // Every preset's heads span the hidden width exactly, and GQA divides evenly.
        EXPECT_EQ(c.num_attention_heads * c.head_dim, c.hidden_size);
        EXPECT_EQ(c.num_attention_heads % c.num_key_value_heads, 0);
        EXPECT_EQ(textbookPsi(c), p.psi);
    }
}

TEST(HfConfig, Llama31EightBIsReadFieldByField) {
    const HfModelConfig c = readHfConfig(presetPath("llama-3.1-8b"));
    EXPECT_EQ(c.file, presetPath("llama-3.1-8b"));
    EXPECT_EQ(c.hidden_size, 4096);
    EXPECT_EQ(c.intermediate_size, 14336);
    EXPECT_EQ(c.num_hidden_layers, 32);
    EXPECT_EQ(c.num_attention_heads, 32);
    EXPECT_EQ(c.num_key_value_heads, 8);
    EXPECT_EQ(c.head_dim, 128); // not in the file: hidden_size / heads
    EXPECT_EQ(c.vocab_size, 128256);
    EXPECT_EQ(c.max_position_embeddings, 131072);
    EXPECT_DOUBLE_EQ(c.rms_norm_eps, 1e-5);
    EXPECT_DOUBLE_EQ(c.rope_theta, 500000.0);
    const HfRopeScaling llama3{HfRopeType::Llama3, 8.0, 1.0, 4.0, 8192};
    EXPECT_EQ(c.rope_scaling, llama3);
    EXPECT_FALSE(c.sliding_window);
    EXPECT_FALSE(c.pad_token_id);
    EXPECT_EQ(c.defaulted, std::vector<std::string>{"head_dim"});
}

TEST(HfConfig, QwenAndMistralPresetsKeepTheirOwnFields) {
    const HfModelConfig q = readHfConfig(presetPath("qwen2.5-0.5b"));
    EXPECT_EQ(q.num_key_value_heads, 2);
    EXPECT_EQ(q.head_dim, 64);
    EXPECT_DOUBLE_EQ(q.rms_norm_eps, 1e-6);
    EXPECT_DOUBLE_EQ(q.rope_theta, 1e6);
    EXPECT_EQ(q.rope_scaling.type, HfRopeType::None);
    EXPECT_FALSE(q.sliding_window); // use_sliding_window false: no window applies
    const HfModelConfig m = readHfConfig(presetPath("mistral-7b-v0.1"));
    EXPECT_EQ(m.sliding_window, 4096);
    EXPECT_EQ(m.max_position_embeddings, 32768);
    EXPECT_DOUBLE_EQ(m.rope_theta, 10000.0);
}

// A minimal config of `arch` with the given extra fields (JSON members, without braces).
std::string minimal(const std::string& arch, const std::string& extra = {}) {
    return R"({"architectures": [")" + arch +
           R"("], "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
               "num_attention_heads": 4, "vocab_size": 100)" +
           (extra.empty() ? "" : ", " + extra) + "}";
}

TEST(HfConfig, LeftOutFieldsTakeEachClassDefaultAndAreListed) {
    const HfModelConfig l = parseHfConfig(minimal("LlamaForCausalLM"), "l.json");
    EXPECT_EQ(l.num_key_value_heads, 4); // LlamaConfig: None -> num_attention_heads
    EXPECT_EQ(l.head_dim, 16);
    EXPECT_EQ(l.max_position_embeddings, 2048);
    EXPECT_FALSE(l.tie_word_embeddings);
    EXPECT_DOUBLE_EQ(l.rms_norm_eps, 1e-6);
    EXPECT_DOUBLE_EQ(l.rope_theta, 10000.0);
    EXPECT_EQ(l.hidden_act, "silu");
    const std::vector<std::string> listed = {
        "num_key_value_heads", "head_dim",     "max_position_embeddings",
        "tie_word_embeddings", "rms_norm_eps", "rope_theta",
        "hidden_act"};
    EXPECT_EQ(l.defaulted, listed);

    // MistralConfig's num_key_value_heads defaults to 8 (not the head count), its
    // sliding_window to 4096, its max_position_embeddings to 4096 * 32.
    const HfModelConfig m = parseHfConfig(
        R"({"architectures": ["MistralForCausalLM"], "hidden_size": 64,
            "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 8,
            "vocab_size": 100})",
        "m.json");
    EXPECT_EQ(m.num_key_value_heads, 8);
    EXPECT_EQ(m.sliding_window, 4096);
    EXPECT_EQ(m.max_position_embeddings, 131072);
    const HfModelConfig m2 =
        parseHfConfig(minimal("MistralForCausalLM", R"("num_key_value_heads": 2,
                                                       "sliding_window": null)"),
                      "m2.json");
    EXPECT_FALSE(m2.sliding_window); // null: v0.2 and later, no window

    // Qwen2Config's num_key_value_heads defaults to 32, which 4 heads cannot share.
    EXPECT_THROW(parseHfConfig(minimal("Qwen2ForCausalLM"), "q.json"), HfConfigError);
    const HfModelConfig q =
        parseHfConfig(minimal("Qwen2ForCausalLM", R"("num_key_value_heads": 2)"), "q.json");
    EXPECT_EQ(q.max_position_embeddings, 32768);
    EXPECT_TRUE(q.qkv_bias);
}

TEST(HfConfig, ModelTypeAloneNamesTheArchitecture) {
    const std::string text = R"({"model_type": "qwen2", "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 4, "vocab_size": 100})";
    EXPECT_EQ(parseHfConfig(text, "t.json").architecture, HfArchitecture::Qwen2);
}

// Expects parseHfConfig(text) to throw naming file, field and every `needles` entry.
void expectRefused(const std::string& text, const std::string& field,
                   const std::vector<std::string>& needles) {
    try {
        parseHfConfig(text, "bad/config.json");
        ADD_FAILURE() << "accepted; expected a refusal at " << field;
    } catch (const HfConfigError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.file(), "bad/config.json");
        EXPECT_EQ(e.field(), field) << what;
        EXPECT_EQ(what.rfind("bad/config.json: " + (field.empty() ? "" : field + ": "), 0), 0u)
            << what;
        for (const std::string& n : needles)
            EXPECT_NE(what.find(n), std::string::npos) << "missing \"" << n << "\" in " << what;
    }
}

TEST(HfConfig, AnotherArchitectureIsRefusedByName) {
    expectRefused(R"({"architectures": ["GPTNeoXForCausalLM"], "hidden_size": 64})",
                  "architectures", {"\"GPTNeoXForCausalLM\"", "not supported", "Qwen2ForCausalLM"});
    expectRefused(R"({"model_type": "gemma", "hidden_size": 64})", "model_type", {"\"gemma\""});
    expectRefused(R"({"architectures": ["LlamaForCausalLM"], "model_type": "qwen2"})", "model_type",
                  {"contradicts", "LlamaForCausalLM"});
    expectRefused(R"({"hidden_size": 64})", "architectures", {"missing"});
    expectRefused(R"({"architectures": ["LlamaForCausalLM", "MistralForCausalLM"]})",
                  "architectures", {"a list of one architecture"});
}

TEST(HfConfig, ShapesThatBreakTheMathAreRefused) {
    expectRefused(minimal("LlamaForCausalLM", R"("num_key_value_heads": 3)"), "num_key_value_heads",
                  {"3 does not divide num_attention_heads (4)"});
    expectRefused(minimal("LlamaForCausalLM", R"("head_dim": 15)"), "head_dim",
                  {"15 is odd", "pairs"});
    // hidden 60 / 4 heads = 15: the derived head_dim is said as derived.
    std::string odd = minimal("LlamaForCausalLM");
    odd.replace(odd.find("\"hidden_size\": 64"), 17, "\"hidden_size\": 60");
    expectRefused(odd, "head_dim", {"15 (hidden_size / num_attention_heads) is odd"});
    std::string zero = minimal("LlamaForCausalLM");
    zero.replace(zero.find("\"num_hidden_layers\": 2"), 22, "\"num_hidden_layers\": 0");
    expectRefused(zero, "num_hidden_layers", {"expected an integer 1-2147483647, got 0"});
    std::string missing = minimal("LlamaForCausalLM");
    missing.replace(missing.find("\"vocab_size\": 100"), 17, "\"torch_dtype\": \"bfloat16\"");
    expectRefused(missing, "vocab_size", {"missing"});
    expectRefused(minimal("LlamaForCausalLM", R"("num_key_value_heads": "4")"),
                  "num_key_value_heads", {"got \"4\""});
    expectRefused(minimal("LlamaForCausalLM", R"("num_key_value_heads": 2.5)"),
                  "num_key_value_heads", {"got 2.5"});
    // Each size fits an int, the product does not fit 2^48 parameters.
    std::string huge = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 2147483644,
        "intermediate_size": 2147483647, "num_hidden_layers": 2147483647,
        "num_attention_heads": 2, "vocab_size": 2147483647})";
    expectRefused(huge, "", {"more than 2^48 parameters", "hidden_size 2147483644"});
}

TEST(HfConfig, FieldsThatChangeTheMathAreRefused) {
    expectRefused(minimal("LlamaForCausalLM", R"("hidden_act": "gelu")"), "hidden_act",
                  {"\"gelu\" is not supported"});
    expectRefused(minimal("LlamaForCausalLM", R"("attention_bias": true)"), "attention_bias",
                  {"o_proj"});
    expectRefused(minimal("LlamaForCausalLM", R"("mlp_bias": true)"), "mlp_bias", {"no biases"});
    expectRefused(minimal("LlamaForCausalLM", R"("attention_dropout": 0.1)"), "attention_dropout",
                  {"0.1 is not supported"});
    expectRefused(
        minimal("Qwen2ForCausalLM", R"("num_key_value_heads": 2, "use_sliding_window": true)"),
        "use_sliding_window", {"max_window_layers"});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": {"rope_type": "yarn",
                                                                   "factor": 4.0})"),
                  "rope_scaling.rope_type", {"\"yarn\" is not supported"});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": {"type": "dynamic",
                                                                   "factor": 2.0})"),
                  "rope_scaling.type", {"\"dynamic\""});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": {"rope_type": "llama3",
        "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192})"),
                  "rope_scaling.high_freq_factor", {"> low_freq_factor (4.0)", "got 4.0"});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": {"rope_type": "llama3",
        "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0})"),
                  "rope_scaling.original_max_position_embeddings", {"missing", "llama3"});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": {"rope_type": "linear",
                                                                   "factor": 0.5})"),
                  "rope_scaling.factor", {">= 1", "got 0.5"});
    expectRefused(minimal("LlamaForCausalLM", R"("rope_scaling": 2)"), "rope_scaling",
                  {"null or an object"});
    expectRefused(minimal("LlamaForCausalLM", R"("partial_rotary_factor": 0.5)"),
                  "partial_rotary_factor", {"0.5 is not supported"});
    expectRefused(minimal("LlamaForCausalLM", R"("rms_norm_eps": 0)"), "rms_norm_eps",
                  {"a number > 0"});
}

TEST(HfConfig, BadFilesAreRefusedNamingTheFile) {
    expectRefused("[1, 2]", "", {"expected a JSON object"});
    expectRefused("{\"architectures\": ", "", {"not JSON"});
    test::TempDir dir("hfcfg");
    try {
        readHfConfig(dir.file("absent.json"));
        ADD_FAILURE() << "no error for a missing file";
    } catch (const HfConfigError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(dir.file("absent.json") + ": cannot open", 0), 0u)
            << e.what();
    }
    const std::string fifo = dir.file("fifo.json");
    test::makeFifo(fifo);
    EXPECT_THROW(readHfConfig(fifo), HfConfigError);
}

TEST(HfConfig, TransformersFiveRopeParametersAreRead) {
    const HfModelConfig c =
        parseHfConfig(minimal("LlamaForCausalLM", R"("rope_parameters": {"rope_type": "linear",
                                        "factor": 2.0, "rope_theta": 50000.0})"),
                      "v5.json");
    EXPECT_DOUBLE_EQ(c.rope_theta, 50000.0);
    EXPECT_EQ(c.rope_scaling.type, HfRopeType::Linear);
    EXPECT_DOUBLE_EQ(c.rope_scaling.factor, 2.0);
}

// Mistral v0.1's window: accepted, recorded, and a training sequence past it refused.
TEST(HfConfig, ContextPastTheSlidingWindowOrThePositionsIsRefused) {
    const HfModelConfig m = readHfConfig(presetPath("mistral-7b-v0.1"));
    EXPECT_FALSE(hfContextProblem(m, 4096));
    const auto past = hfContextProblem(m, 4097);
    ASSERT_TRUE(past);
    const std::string text = renderEnglish(*past);
    EXPECT_NE(text.find("4097 tokens exceeds the sliding window (4096) of MistralForCausalLM"),
              std::string::npos)
        << text;
    const HfModelConfig l = readHfConfig(presetPath("llama-3.2-1b"));
    EXPECT_FALSE(hfContextProblem(l, 131072));
    ASSERT_TRUE(hfContextProblem(l, 131073));
    EXPECT_NE(renderEnglish(*hfContextProblem(l, 131073)).find("max_position_embeddings (131072)"),
              std::string::npos);
}

// transformers' _compute_llama3_parameters, evaluated here from its definition for the
// three bands of Llama 3.1 8B (head_dim 128, theta 500000, factor 8, low 1, high 4,
// original context 8192).
TEST(HfConfig, RopeInverseFrequenciesFollowTransformers) {
    const HfModelConfig c = readHfConfig(presetPath("llama-3.1-8b"));
    const std::vector<double> inv = hfRopeInverseFrequencies(c);
    ASSERT_EQ(inv.size(), 64u);
    const auto base = [](int i) { return std::pow(500000.0, -2.0 * i / 128.0); };
    // i = 0: wavelength 2*pi, far below 8192 / 4: kept.
    EXPECT_DOUBLE_EQ(inv[0], 1.0);
    // i = 63: wavelength far above 8192: divided by the factor.
    EXPECT_DOUBLE_EQ(inv[63], base(63) / 8.0);
    // A band in between (2048 <= wavelength <= 8192) is interpolated.
    int checked = 0;
    for (int i = 0; i < 64; ++i) {
        const double wavelen = 2 * std::numbers::pi / base(i);
        if (wavelen < 2048.0 || wavelen > 8192.0)
            continue;
        const double smooth = (8192.0 / wavelen - 1.0) / (4.0 - 1.0);
        const double expected = (1 - smooth) * base(i) / 8.0 + smooth * base(i);
        EXPECT_NEAR(inv[static_cast<std::size_t>(i)], expected, 1e-12 * expected);
        ++checked;
    }
    EXPECT_GT(checked, 0);
    // Unscaled and linear.
    HfModelConfig plain = c;
    plain.rope_scaling = {};
    EXPECT_DOUBLE_EQ(hfRopeInverseFrequencies(plain)[63], base(63));
    plain.rope_scaling = {HfRopeType::Linear, 4.0, 0, 0, 0};
    EXPECT_DOUBLE_EQ(hfRopeInverseFrequencies(plain)[10], base(10) / 4.0);
}

} // namespace
} // namespace zerolab
