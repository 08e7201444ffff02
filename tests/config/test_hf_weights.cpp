// model.init_from with Hugging Face safetensors (issue 36 item 5): the shape comes from
// the config.json beside the weights; the tensors under their HF names are checked
// against it (every missing or extra tensor, a wrong shape, a dtype not read), one file
// or a sharded index; F32 and BF16 read; what --export-model writes reads back.
#include "tests/config/config_test_util.h"
#include "tests/support/temp_dir.h"

#include "runtime/config/hf_shape.h"
#include "runtime/model/llama/llama_hf_names.h"
#include "runtime/train/model_files.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>

namespace zerolab {
namespace {

using test::dump;
using test::findError;
using test::parse;
using test::withBatch;

ModelShape nano() {
    return *findModelPreset("llama-nano");
}

// A flat buffer of `layout` with distinct values in every parameter (bf16-exact where
// `bf16_exact`, so that a BF16 file reads back equal), zeros in the padding.
std::vector<float> distinctFlat(const ParamLayout& layout, bool bf16_exact) {
    std::vector<float> flat(layout.padded_total, 0.0f);
    for (const UnitLayout& u : layout.units)
        for (std::int64_t i = 0; i < u.elems; ++i) {
            const float v = static_cast<float>(u.offset + i) * 1e-4f - 0.5f;
            flat[u.offset + i] = bf16_exact ? bf16ToFloat(floatToBf16(v)) : v;
        }
    return flat;
}

// Writes `shape`'s config.json and weights into `dir` as --export-model does; returns the
// .safetensors path.
std::string exportTo(const test::TempDir& dir, const ModelShape& shape,
                     const std::vector<float>& flat, const ParamLayout& layout,
                     SafetensorsDtype dtype = SafetensorsDtype::F32) {
    const std::string weights = dir.file("model.safetensors");
    writeLlamaHfWeights(weights, layout, flat.data(), dtype);
    std::ofstream(dir.file("config.json")) << hfConfigJson(shape).dump(2);
    return weights;
}

std::string initConfig(const std::string& weights) {
    return withBatch(R"("model": {"init_from": ")" + weights + R"("})");
}

TEST(HfWeights, TheNamesAreHuggingFaces) {
    ModelShape s = nano();
    s.qkv_bias = true;
    s.tied_head = false;
    const auto tensors = llamaHfTensors(s);
    ASSERT_EQ(tensors.size(), 1u + 2 * 12 + 2);
    EXPECT_EQ(tensors.front().name, "model.embed_tokens.weight");
    EXPECT_EQ(tensors.front().shape, (std::vector<std::int64_t>{256, 64}));
    EXPECT_EQ(tensors[1].name, "model.layers.0.input_layernorm.weight");
    EXPECT_EQ(tensors[2].name, "model.layers.0.self_attn.q_proj.weight");
    EXPECT_EQ(tensors[2].shape, (std::vector<std::int64_t>{64, 64}));
    EXPECT_EQ(tensors[3].name, "model.layers.0.self_attn.q_proj.bias");
    EXPECT_EQ(tensors[3].shape, (std::vector<std::int64_t>{64}));
    EXPECT_EQ(tensors[4].name, "model.layers.0.self_attn.k_proj.weight");
    EXPECT_EQ(tensors[4].shape, (std::vector<std::int64_t>{32, 64})); // 2 kv heads x 16
    EXPECT_EQ(tensors[7].name, "model.layers.0.self_attn.v_proj.bias");
    EXPECT_EQ(tensors[8].name, "model.layers.0.self_attn.o_proj.weight");
    EXPECT_EQ(tensors[9].name, "model.layers.0.post_attention_layernorm.weight");
    EXPECT_EQ(tensors[10].name, "model.layers.0.mlp.gate_proj.weight");
    EXPECT_EQ(tensors[10].shape, (std::vector<std::int64_t>{176, 64}));
    EXPECT_EQ(tensors[11].name, "model.layers.0.mlp.up_proj.weight");
    EXPECT_EQ(tensors[12].name, "model.layers.0.mlp.down_proj.weight");
    EXPECT_EQ(tensors[12].shape, (std::vector<std::int64_t>{64, 176}));
    EXPECT_EQ(tensors[13].name, "model.layers.1.input_layernorm.weight");
    EXPECT_EQ(tensors[25].name, "model.norm.weight");
    EXPECT_EQ(tensors[26].name, "lm_head.weight");
    std::int64_t total = 0;
    for (const LlamaHfTensor& t : tensors) {
        total += t.elements;
        EXPECT_EQ(
            std::accumulate(t.shape.begin(), t.shape.end(), std::int64_t{1}, std::multiplies<>()),
            t.elements)
            << t.name;
    }
    EXPECT_EQ(total, paramCount(s));
    // Tied and without biases: no head, no biases.
    EXPECT_EQ(llamaHfTensors(nano()).size(), 1u + 2 * 9 + 1);
}

TEST(HfWeights, InitFromSafetensorsTakesTheShapeBesideItAndReadsEveryTensor) {
    for (const SafetensorsDtype dtype : {SafetensorsDtype::F32, SafetensorsDtype::BF16}) {
        SCOPED_TRACE(std::string(safetensorsDtypeName(dtype)));
        test::TempDir dir("hf-weights");
        const ParamLayout layout = makeParamLayout(nano(), 3); // padded units
        const auto flat = distinctFlat(layout, dtype == SafetensorsDtype::BF16);
        const std::string weights = exportTo(dir, nano(), flat, layout, dtype);

        auto r = parse(initConfig(weights));
        ASSERT_TRUE(r.ok()) << dump(r);
        EXPECT_EQ(r.config->model.shape, nano());
        EXPECT_EQ(r.config->model.init_from, weights);
        auto with_preset = parse(withBatch(R"("model": {"init_from": ")" + weights +
                                           R"(", "preset": "llama-nano", "seq_len": 32})"));
        ASSERT_TRUE(with_preset.ok()) << dump(with_preset);
        EXPECT_EQ(with_preset.config->model.seq_len, 32);

        std::vector<float> back(layout.padded_total, 7.0f);
        readInitialModel(r.config->model, layout, back.data());
        EXPECT_EQ(back, flat);
    }
}

TEST(HfWeights, ExportModelWritesSafetensorsAndTheConfigJsonBesideIt) {
    test::TempDir dir("hf-export");
    auto r = parse(withBatch(R"("model": {"preset": "llama-micro"})"));
    ASSERT_TRUE(r.ok()) << dump(r);
    const ParamLayout layout = makeParamLayout(r.config->model.shape, 2);
    const auto flat = distinctFlat(layout, false);
    EXPECT_TRUE(exportModelProblem(r.config->model, dir.file("m.bin")).has_value());
    EXPECT_FALSE(exportModelProblem(r.config->model, dir.file("m.safetensors")).has_value());
    const std::string written =
        exportModel(dir.file("m.safetensors"), *r.config, layout, flat.data());
    EXPECT_EQ(written, dir.file("m.safetensors") + " and " + dir.file("config.json"));

    auto again = parse(initConfig(dir.file("m.safetensors")));
    ASSERT_TRUE(again.ok()) << dump(again);
    EXPECT_EQ(again.config->model.shape, r.config->model.shape);
    std::vector<float> back(layout.padded_total);
    readInitialModel(again.config->model, layout, back.data());
    EXPECT_EQ(back, flat);
    const SafetensorsFile f(dir.file("m.safetensors"));
    EXPECT_EQ(f.metadata().at("format"), "pt");
    EXPECT_NE(f.find("lm_head.weight"), nullptr); // llama-micro is untied
}

TEST(HfWeights, AShardedCheckpointIsReadThroughItsIndex) {
    test::TempDir dir("hf-shards");
    const ParamLayout layout = makeParamLayout(nano(), 1);
    const auto flat = distinctFlat(layout, false);
    // Two shards: the embedding and layer 0 in the first, the rest in the second.
    std::vector<SafetensorsTensorToWrite> a, b;
    nlohmann::json map = nlohmann::json::object();
    for (const LlamaHfTensor& t : llamaHfTensors(nano())) {
        const bool first = t.tensor == LlamaTensor::EmbedTokens ||
                           (llamaTensorRole(t.tensor) == UnitRole::Block && t.layer == 0);
        (first ? a : b)
            .push_back({t.name, t.shape,
                        std::span<const float>(flat.data() + layout.flatOffset(t.tensor, t.layer),
                                               static_cast<std::size_t>(t.elements)),
                        SafetensorsDtype::BF16});
        map[t.name] =
            first ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
    }
    writeSafetensors(dir.file("model-00001-of-00002.safetensors"), a);
    writeSafetensors(dir.file("model-00002-of-00002.safetensors"), b);
    std::ofstream(dir.file("model.safetensors.index.json"))
        << nlohmann::json{{"metadata", {{"total_size", 0}}}, {"weight_map", map}}.dump();
    std::ofstream(dir.file("config.json")) << hfConfigJson(nano()).dump();

    auto r = parse(initConfig(dir.file("model.safetensors.index.json")));
    ASSERT_TRUE(r.ok()) << dump(r);
    std::vector<float> back(layout.padded_total);
    readInitialModel(r.config->model, layout, back.data());
    for (std::size_t i = 0; i < flat.size(); ++i)
        ASSERT_EQ(back[i], bf16ToFloat(floatToBf16(flat[i]))) << i;
}

// Every departure from the config.json's model is refused naming the file and the tensor.
TEST(HfWeights, MissingExtraOrMisshapenTensorsAreRefusedByName) {
    const ParamLayout layout = makeParamLayout(nano(), 1);
    const auto flat = distinctFlat(layout, false);
    const auto tensors = llamaHfTensors(nano());
    struct Case {
        const char* what;
        std::function<void(std::vector<SafetensorsTensorToWrite>&)> edit;
        std::string fragment;
    };
    const std::vector<float> extra(64 * 256, 0.0f);
    const std::vector<float> odd(10, 0.0f);
    const Case cases[] = {
        {"missing",
         [](auto& t) {
             t.erase(std::find_if(t.begin(), t.end(), [](const auto& x) {
                 return x.name == "model.layers.1.mlp.up_proj.weight";
             }));
         },
         "tensor \"model.layers.1.mlp.up_proj.weight\" is missing"},
        {"extra head of a tied model",
         [&](auto& t) {
             t.push_back({"lm_head.weight", {256, 64}, extra, SafetensorsDtype::F32});
         },
         "tensor \"lm_head.weight\" is not a tensor of the model its config.json describes "
         "(tie_word_embeddings is true"},
        {"extra",
         [&](auto& t) {
             t.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq",
                          {10},
                          odd,
                          SafetensorsDtype::F32});
         },
         "tensor \"model.layers.0.self_attn.rotary_emb.inv_freq\" is not a tensor"},
        {"shape",
         [](auto& t) {
             for (auto& x : t)
                 if (x.name == "model.norm.weight")
                     x.shape = {8, 8};
         },
         "tensor \"model.norm.weight\": shape [8, 8], the model's is [64]"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        test::TempDir dir("hf-bad");
        std::vector<SafetensorsTensorToWrite> out;
        for (const LlamaHfTensor& t : tensors)
            out.push_back(
                {t.name, t.shape,
                 std::span<const float>(flat.data() + layout.flatOffset(t.tensor, t.layer),
                                        static_cast<std::size_t>(t.elements)),
                 SafetensorsDtype::F32});
        c.edit(out);
        const std::string weights = dir.file("model.safetensors");
        writeSafetensors(weights, out);
        std::ofstream(dir.file("config.json")) << hfConfigJson(nano()).dump();
        auto r = parse(initConfig(weights));
        EXPECT_FALSE(r.ok());
        EXPECT_NE(findError(r, "model.init_from", weights + ": " + c.fragment), nullptr) << dump(r);
    }
}

TEST(HfWeights, WithoutItsConfigJsonOrWithABadOneTheWeightsAreRefused) {
    test::TempDir dir("hf-noconfig");
    const ParamLayout layout = makeParamLayout(nano(), 1);
    const auto flat = distinctFlat(layout, false);
    const std::string weights = dir.file("model.safetensors");
    writeLlamaHfWeights(weights, layout, flat.data(), SafetensorsDtype::F32);
    auto none = parse(initConfig(weights));
    EXPECT_NE(findError(none, "model.init_from", dir.file("config.json")), nullptr) << dump(none);

    nlohmann::json cfg = hfConfigJson(nano());
    cfg["hidden_act"] = "gelu";
    std::ofstream(dir.file("config.json")) << cfg.dump();
    auto act = parse(initConfig(weights));
    EXPECT_NE(findError(act, "model.init_from", dir.file("config.json") + ": hidden_act:"), nullptr)
        << dump(act);

    // A config.json of another size: the tensors disagree, named.
    std::ofstream(dir.file("config.json")) << hfConfigJson(*findModelPreset("llama-micro")).dump();
    auto other = parse(initConfig(weights));
    EXPECT_NE(findError(other, "model.init_from",
                        "model.embed_tokens.weight\": shape [256, 64], "
                        "the model's is [256, 256]"),
              nullptr)
        << dump(other);
}

} // namespace
} // namespace zerolab
