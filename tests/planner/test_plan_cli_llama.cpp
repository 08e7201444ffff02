// zerolab-plan with the Llama family (issue 36 item 3): --model takes every preset,
// --hf-config reads a Hugging Face config.json, --seq runs up to the model's context;
// bad input exits 2 naming the flag, the file and the field; --explain writes the Llama
// arena's closed forms.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/model/model_shape.h"
#include "runtime/model/param_layout.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

using zerolab::test::ProcessResult;

ProcessResult plan(const std::string& args) {
    return zerolab::test::runTool("zerolab-plan", args);
}

std::string modelConfig(const std::string& name) {
    return std::string(ZEROLAB_SOURCE_DIR) + "/resources/models/" + name + "/config.json";
}

// The issue's command: llama-3.1-8b at 4096 tokens plans, with psi the published count and
// model states by the ZeRO paper's formulas (mixed precision, K = 12) up to padding.
TEST(PlanCliLlama, Llama31EightBAtFourThousandTokens) {
    const ProcessResult r = plan("--model llama-3.1-8b --seq 4096 --world 8 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const double psi = 8'030'261'248.0;
    EXPECT_EQ(j.at("psi").get<double>(), psi);
    const double padded = j.at("psi_padded").get<double>();
    EXPECT_GE(padded, psi);
    EXPECT_LT(padded - psi, 8.0 * (32 + 2)); // each unit padded to a multiple of 8
    const double expected[4] = {16 * padded, 4 * padded + 12 * padded / 8,
                                2 * padded + 14 * padded / 8, 16 * padded / 8};
    for (int stage = 0; stage < 4; ++stage)
        EXPECT_NEAR(j.at("stages").at(stage).at("model_states_bytes").get<double>(),
                    expected[stage], 64)
            << "stage " << stage;
    EXPECT_GT(j.at("stages").at(0).at("activation_bytes").get<double>(), 0);
    EXPECT_EQ(plan("--model llama-3.1-8b --seq 4096").exit_code, 0);
}

// --explain shows the Llama arena's own closed form (family.h's activation_terms), with
// GQA's kv heads and the FFN width in it, and no (T,T) term: not GPT-2's.
TEST(PlanCliLlama, ExplainWritesTheLlamaArenasClosedForm) {
    const ProcessResult r =
        plan("--model llama-3.1-8b --seq 4096 --micro 1 --world 8 --stage 3 --explain");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Llama activation arena"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("k = 8 kv heads"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("f = 14336"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("per layer: 16sbh + 8sbQ + 8sbK + 12sbf"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("GPT-2 activation arena"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("4as^2b"), std::string::npos) << r.out;
}

// A head width other than hidden / heads (head_dim given) plans: llama-nano's
// config.json with 3 heads of 16 over a hidden size of 64.
TEST(PlanCliLlama, HeadDimOtherThanHiddenOverHeadsPlans) {
    zerolab::test::TempDir dir;
    std::ifstream in(modelConfig("llama-3.2-1b"));
    nlohmann::json c = nlohmann::json::parse(in);
    c["hidden_size"] = 64;
    c["num_attention_heads"] = 3;
    c["num_key_value_heads"] = 1;
    c["head_dim"] = 16;
    c["intermediate_size"] = 176;
    c["num_hidden_layers"] = 2;
    c["vocab_size"] = 256;
    c.erase("rope_scaling");
    const std::string path = dir.file("config.json");
    std::ofstream(path) << c.dump(2);
    const ProcessResult r = plan("--hf-config " + path + " --seq 64 --micro 2 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    // embed 256x64, per layer: 2 norms 64, q 64x48, k and v 64x16, o 48x64, MLP 3x64x176;
    // final norm; tied (llama-3.2-1b ties its head).
    const double layer = 2 * 64 + 64 * 48 + 2 * 64 * 16 + 48 * 64 + 3 * 64 * 176;
    EXPECT_EQ(j.at("psi").get<double>(), 256 * 64 + 2 * layer + 64);
    EXPECT_GT(j.at("stages").at(0).at("activation_bytes").get<double>(), 0);
}

// The same model from its config.json plans the same numbers as its preset.
TEST(PlanCliLlama, HfConfigPlansAsItsPreset) {
    for (const char* name : {"llama-3.2-1b", "qwen2.5-0.5b", "mistral-7b-v0.1"}) {
        const ProcessResult a =
            plan(std::string("--model ") + name + " --seq 2048 --world 4 --json");
        const ProcessResult b =
            plan("--hf-config " + modelConfig(name) + " --seq 2048 --world 4 --json");
        ASSERT_EQ(a.exit_code, 0) << a.err;
        ASSERT_EQ(b.exit_code, 0) << b.err;
        EXPECT_EQ(nlohmann::json::parse(a.out).at("stages"),
                  nlohmann::json::parse(b.out).at("stages"))
            << name;
    }
}

// psi of every Llama preset --model accepts is the published count, now (the family's
// tensors are written); the flat layout the planner pads from holds exactly psi.
TEST(PlanCliLlama, EveryLlamaPresetHasItsPublishedParameterCount) {
    const std::pair<const char*, std::int64_t> published[] = {
        {"llama-3.2-1b", 1'235'814'400},     {"llama-3.2-3b", 3'212'749'824},
        {"llama-3.1-8b", 8'030'261'248},     {"llama-3.1-70b", 70'553'706'496},
        {"llama-3.1-405b", 405'853'388'800}, {"qwen2.5-0.5b", 494'032'768},
        {"qwen2.5-7b", 7'615'616'512},       {"mistral-7b-v0.1", 7'241'732'096},
    };
    for (const auto& [name, psi] : published) {
        const auto s = zerolab::findModelPreset(name);
        ASSERT_TRUE(s.has_value()) << name;
        EXPECT_EQ(zerolab::paramCount(*s), psi) << name;
        const zerolab::ParamLayout layout = zerolab::makeParamLayout(*s, 8);
        EXPECT_EQ(layout.total_elems, psi) << name;
        EXPECT_EQ(layout.padded_total % 8, 0) << name;
    }
}

// Every refusal exits 2 and names the flag, the file and the field: nothing here needs
// the forecast, so these run now.
TEST(PlanCliLlama, BadShapeInputExitsTwoNamingTheFlagTheFileAndTheField) {
    zerolab::test::TempDir dir("plan-llama");
    const std::string bad = dir.file("config.json");
    std::ofstream(bad) << R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 3, "vocab_size": 256})";
    const std::pair<std::string, std::string> cases[] = {
        {"--model llama-3.1-8b --seq 131073",
         "--seq 131073 exceeds the maximum context 131072 of preset 'llama-3.1-8b'"},
        {"--model llama-3.1-8b --seq -4", "--seq: expected a sequence length >= 1, got -4"},
        {"--model llama-9", "--model: unknown preset 'llama-9' (nano, micro"},
        {"--model llama-3.1-8b --layers 4", "--model gives the whole shape"},
        {"--model llama-3.1-8b --hf-config " + modelConfig("llama-3.1-8b"),
         "--model and --hf-config exclude each other"},
        {"--hf-config " + modelConfig("mistral-7b-v0.1") + " --seq 8192",
         "--seq 8192: a sequence of 8192 tokens exceeds the sliding window (4096)"},
        {"--hf-config " + modelConfig("llama-3.2-1b") + " --seq 200000",
         "exceeds max_position_embeddings (131072) in " + modelConfig("llama-3.2-1b")},
        {"--hf-config " + bad, "--hf-config: " + bad + ": num_key_value_heads: 3 does not divide"},
        {"--hf-config " + dir.file("absent.json"), "--hf-config: " + dir.file("absent.json")},
        {"--config " + bad + " --model llama-3.1-8b", "--config and --model exclude each other"},
    };
    for (const auto& [args, fragment] : cases) {
        const ProcessResult r = plan(args);
        EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
        EXPECT_NE(r.err.find(fragment), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    }
}

// GPT-2's numbers are unchanged: --model with a GPT-2 preset still plans (and the preset
// list of --help names the Llama presets).
TEST(PlanCliLlama, GptTwoPresetsStillPlanAndHelpListsEveryPreset) {
    const ProcessResult r = plan("--model gpt2-124m --seq 1024 --micro 2 --world 4 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("psi").get<double>(), 124'475'904.0);
    const ProcessResult help = plan("--help");
    EXPECT_NE(help.out.find("llama-3.1-8b"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("--hf-config"), std::string::npos) << help.out;
}

} // namespace
