// meta.json of a checkpoint (issue 17 §3): its checksum catches an edit or corruption,
// and with a valid checksum every field is still range-checked, the error naming the
// file, the field and its value.
#include "tests/support/temp_dir.h"

#include "runtime/engine/checkpoint_meta.h"
#include "runtime/engine/fnv1a.h"
#include "runtime/engine/model_weights.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

// meta.json of a checkpoint written by zerolab-train before issue 29 (format 3, hashed from
// the old basis), verbatim.
constexpr const char* kFormatThreeMeta = R"({
  "files": {
    "model.bin": {
      "fnv1a64": "64e06df8f11d393c",
      "size": 483328
    },
    "optim-rank0.bin": {
      "fnv1a64": "eb8756f78b9fd491",
      "size": 482368
    },
    "optim-rank1.bin": {
      "fnv1a64": "9b4e1435b2ba8f48",
      "size": 482368
    }
  },
  "fnv1a64": "5b615fad22158d7b",
  "format": 3,
  "model": {
    "n_embd": 64,
    "n_head": 2,
    "n_layer": 2,
    "padded_vocab_size": 256,
    "seq_len": 64,
    "vocab_size": 256
  },
  "precision": "fp32",
  "run_id": 1,
  "run_uuid": "69417550-b051-47bf-ad68-cc0dc8b9a028",
  "stage": 1,
  "step": 2,
  "tokens": 384,
  "world": 2
}
)";

class CheckpointMetaFile : public ::testing::Test {
protected:
    void SetUp() override { m_path = (m_dir / "meta.json").string(); }

    static CheckpointManifest valid() {
        CheckpointManifest m;
        m.meta = {12, 12 * 4096, 3, 2, 2, "0f8e4c6a-2b1d-4e7f-9a3c-5d6e7f8091a2"};
        m.precision = "bf16";
        m.shape = {2, 2, 64, 64, 256, 256};
        m.files["model.bin"] = {1024 + paramCount(m.shape) * 4, "0123456789abcdef"};
        m.files["optim-rank0.bin"] = {64, "00000000000000ff"};
        m.files["optim-rank1.bin"] = {64, "fedcba9876543210"};
        return m;
    }
    void write(const std::string& text) const {
        std::ofstream(m_path, std::ios::binary | std::ios::trunc) << text;
    }
    std::string read() const {
        std::ifstream in(m_path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    // Writes m (with a valid checksum) and expects the reader to refuse it with a
    // message naming the file and containing `needle`.
    void expectRefused(const CheckpointManifest& m, const std::string& needle) const {
        write(checkpointMetaText(m));
        try {
            readCheckpointMeta(m_path);
            ADD_FAILURE() << "accepted; expected: " << needle;
        } catch (const CheckpointError& e) {
            const std::string msg = e.what();
            EXPECT_EQ(msg.rfind(m_path + ": ", 0), 0u) << msg;
            EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        }
    }

    test::TempDir m_temp{"meta"};
    const fs::path m_dir = m_temp.path();
    std::string m_path;
};

// A meta.json is read as a config is: only a regular file of at most 16 MiB (it was read
// whole, whatever it was).
TEST_F(CheckpointMetaFile, OversizedOrNonRegularFileIsRefused) {
    write(std::string((std::size_t{16} << 20) + 1, ' '));
    const std::pair<std::string, std::string> cases[] = {
        {m_path, ": larger than 16 MiB (16777217 bytes)"},
        {"/dev/null", ": not a regular file"},
        {m_dir.string(), ": not a regular file"},
    };
    for (const auto& [file, expected] : cases) {
        try {
            readCheckpointMeta(file);
            ADD_FAILURE() << "accepted " << file;
        } catch (const CheckpointError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(file + expected, 0), 0u) << e.what();
        }
    }
}

TEST_F(CheckpointMetaFile, RoundTrip) {
    const CheckpointManifest m = valid();
    write(checkpointMetaText(m));
    const CheckpointManifest back = readCheckpointMeta(m_path);
    EXPECT_EQ(back.meta.step, 12);
    EXPECT_EQ(back.meta.tokens, 12 * 4096);
    EXPECT_EQ(back.meta.run_id, 3);
    EXPECT_EQ(back.meta.run_uuid, "0f8e4c6a-2b1d-4e7f-9a3c-5d6e7f8091a2");
    EXPECT_EQ(back.meta.world, 2);
    EXPECT_EQ(back.meta.stage, 2);
    EXPECT_EQ(back.precision, "bf16");
    EXPECT_EQ(back.shape, m.shape);
    ASSERT_EQ(back.files.size(), 3u);
    EXPECT_EQ(back.files.at("optim-rank1.bin").fnv1a64, "fedcba9876543210");
}

// Checkpoints written before meta.json had a checksum (format 1) still load, range-checked.
TEST_F(CheckpointMetaFile, FormatOneWithoutChecksumIsRangeCheckedOnly) {
    nlohmann::json j = nlohmann::json::parse(checkpointMetaText(valid()));
    j.erase("fnv1a64");
    j["format"] = 1;
    write(j.dump(2));
    EXPECT_EQ(readCheckpointMeta(m_path).meta.step, 12);
    j["step"] = -5;
    write(j.dump(2));
    EXPECT_THROW(readCheckpointMeta(m_path), CheckpointError);
}

// Format 2 (checksummed, before run uuids) still loads, with an empty run_uuid: the
// resume then says what is missing (docs/engine.md).
TEST_F(CheckpointMetaFile, FormatTwoHasNoRunUuid) {
    nlohmann::json j = nlohmann::json::parse(checkpointMetaText(valid()));
    j.erase("fnv1a64");
    j.erase("run_uuid");
    j["format"] = 2;
    const std::string body = j.dump(); // format 2's checksum covers the same compact JSON
    j["fnv1a64"] = fnv1aHex(fnv1a(body.data(), body.size(), kFnv1aLegacyBasis));
    write(j.dump(2));
    const CheckpointManifest back = readCheckpointMeta(m_path);
    EXPECT_EQ(back.meta.run_uuid, "");
    EXPECT_EQ(back.meta.step, 12);
}

// Issue 29 §9: the offset basis was 1469598103934665603, a digit short of FNV-1a 64's
// 14695981039346656037, so every checksum disagreed with other tools. These are the
// published test vectors (Noll's FNV page: "", "a", "foobar").
TEST(Fnv1a, MatchesTheStandardTestVectors) {
    EXPECT_EQ(fnv1aHex(fnv1a("", 0)), "cbf29ce484222325");
    EXPECT_EQ(fnv1aHex(fnv1a("a", 1)), "af63dc4c8601ec8c");
    EXPECT_EQ(fnv1aHex(fnv1a("foobar", 6)), "85944171f73967e8");
    // A hash continued over pieces equals the hash of the whole.
    EXPECT_EQ(fnv1a("bar", 3, fnv1a("foo", 3)), fnv1a("foobar", 6));
}

// What is written now is format 5, its own checksum the standard FNV-1a 64 of the compact
// JSON without it (as format 4's), and files are verified from the standard basis.
TEST_F(CheckpointMetaFile, FormatFiveIsTheStandardChecksum) {
    write(checkpointMetaText(valid()));
    nlohmann::json j = nlohmann::json::parse(read());
    EXPECT_EQ(j["format"], 5);
    const std::string recorded = j["fnv1a64"];
    j.erase("fnv1a64");
    const std::string body = j.dump();
    EXPECT_EQ(recorded, fnv1aHex(fnv1a(body.data(), body.size(), 14695981039346656037ULL)));
    EXPECT_EQ(readCheckpointMeta(m_path).checksum_basis, 14695981039346656037ULL);
}

// A format-3 meta.json as the build before issue 29 wrote it (checkpoint step 2 of a
// 2-rank ZeRO-1 nano run, text kept verbatim): it verifies with the old basis, and its
// files are to be verified from that basis too.
TEST_F(CheckpointMetaFile, FormatThreeVerifiesWithTheLegacyBasis) {
    write(kFormatThreeMeta);
    const CheckpointManifest m = readCheckpointMeta(m_path);
    EXPECT_EQ(m.checksum_basis, 1469598103934665603ULL);
    EXPECT_EQ(m.meta.step, 2);
    EXPECT_EQ(m.meta.world, 2);
    // The same text with format 4 claims the standard basis: its checksum no longer matches.
    std::string edited = kFormatThreeMeta;
    edited.replace(edited.find("\"format\": 3"), 11, "\"format\": 4");
    write(edited);
    EXPECT_THROW(readCheckpointMeta(m_path), CheckpointError);
}

// Format 5 records every field of the shape: a Llama model (GQA, untied, RoPE scaling)
// and the attention kernel read back exactly.
TEST_F(CheckpointMetaFile, FormatFiveKeepsTheFamilyAndEveryLlamaField) {
    for (const char* name : {"llama-3.1-8b", "qwen2.5-0.5b", "llama-nano", "nano"}) {
        SCOPED_TRACE(name);
        CheckpointManifest m = valid();
        m.shape = *findModelPreset(name);
        m.files.erase("model.bin");
        m.files[modelWeightsFileName(m.shape)] = {4096, "0123456789abcdef"};
        write(checkpointMetaText(m));
        EXPECT_EQ(readCheckpointMeta(m_path).shape, m.shape);
        m.shape.attention = AttentionKernel::Flash;
        write(checkpointMetaText(m));
        EXPECT_EQ(readCheckpointMeta(m_path).shape.attention, AttentionKernel::Flash);
    }
}

// A Llama model's weights are model.safetensors (Hugging Face's format), GPT-2's
// model.bin (llm.c's); meta.json must list the one of its family.
TEST_F(CheckpointMetaFile, TheModelFileIsTheFamilys) {
    EXPECT_EQ(modelWeightsFileName(*findModelPreset("nano")), "model.bin");
    EXPECT_EQ(modelWeightsFileName(*findModelPreset("llama-nano")), "model.safetensors");
    CheckpointManifest m = valid();
    m.shape = *findModelPreset("llama-nano");
    expectRefused(m, "files: no entry for model.safetensors");
}

// The model file round-trips for both families, and a checkpoint (or an llm.c file)
// written under one attention kernel reads into a run with the other.
TEST(CheckpointModelFile, WeightsReadBackUnderEitherKernel) {
    test::TempDir dir("weights");
    for (const char* name : {"nano", "llama-nano", "llama-micro"}) {
        SCOPED_TRACE(name);
        const ModelShape s = *findModelPreset(name);
        const ParamLayout layout = makeParamLayout(s, 3);
        std::vector<float> flat(layout.padded_total, 0.0f);
        for (const UnitLayout& u : layout.units)
            for (std::int64_t i = 0; i < u.elems; ++i)
                flat[u.offset + i] = static_cast<float>(u.offset + i) * 0.25f;
        const std::string path = dir.file(modelWeightsFileName(s));
        writeModelWeights(path, layout, flat.data());
        ModelShape other = s;
        other.attention = s.attention == AttentionKernel::Flash ? AttentionKernel::Standard
                                                                : AttentionKernel::Flash;
        std::vector<float> back(layout.padded_total, -1.0f);
        readModelWeights(path, makeParamLayout(other, 3), back.data());
        EXPECT_EQ(back, flat);
    }
}

// A checkpoint written before the Llama family (format 4, GPT-2's six fields, hashed from
// the standard basis) reads as the GPT-2 model with the standard kernel it was.
TEST_F(CheckpointMetaFile, FormatFourReadsAsAGptTwoShape) {
    write(checkpointMetaText(valid()));
    nlohmann::json j = nlohmann::json::parse(read());
    j.erase("fnv1a64");
    j["format"] = 4;
    j["model"] = {{"n_layer", 2},  {"n_head", 2},       {"n_embd", 64},
                  {"seq_len", 64}, {"vocab_size", 256}, {"padded_vocab_size", 256}};
    const std::string body = j.dump();
    j["fnv1a64"] = fnv1aHex(fnv1a(body.data(), body.size(), kFnv1aBasis));
    write(j.dump(2));
    const ModelShape s = readCheckpointMeta(m_path).shape;
    EXPECT_EQ(s, valid().shape);
    EXPECT_EQ(s.family, Family::Gpt2);
    EXPECT_EQ(s.attention, AttentionKernel::Standard);
}

// Each new field is range-checked, named by its JSON path with its value (the checksum
// recomputed, so that the range check is what refuses).
TEST_F(CheckpointMetaFile, TheLlamaFieldsAreRangeChecked) {
    CheckpointManifest m = valid();
    m.shape = *findModelPreset("llama-nano");
    using Edit = std::function<void(nlohmann::json&)>;
    const std::pair<Edit, std::string> cases[] = {
        {[](auto& j) { j["family"] = "mamba"; }, "model.family: unknown model family \"mamba\""},
        {[](auto& j) { j["attention"] = "paged"; },
         "model.attention: expected \"standard\" or \"flash\", got \"paged\""},
        {[](auto& j) { j["n_kv_head"] = -2; }, "model.n_kv_head: expected an integer"},
        {[](auto& j) { j["intermediate_size"] = "big"; }, "model.intermediate_size: expected"},
        {[](auto& j) { j["qkv_bias"] = 1; }, "model.qkv_bias: expected true or false, got 1"},
        {[](auto& j) { j["rms_norm_eps"] = 0; }, "model.rms_norm_eps: expected a number > 0"},
        {[](auto& j) { j.erase("rope_theta"); }, "model.rope_theta: missing"},
        {[](auto& j) { j["rope_scaling"]["type"] = "yarn"; },
         "model.rope_scaling.type: expected \"none\", \"linear\" or \"llama3\""},
        {[](auto& j) { j["rope_scaling"]["factor"] = -8; }, "model.rope_scaling.factor"},
    };
    for (const auto& [edit, needle] : cases) {
        SCOPED_TRACE(needle);
        write(checkpointMetaText(m));
        nlohmann::json j = nlohmann::json::parse(read());
        j.erase("fnv1a64");
        edit(j["model"]);
        const std::string body = j.dump();
        j["fnv1a64"] = fnv1aHex(fnv1a(body.data(), body.size(), kFnv1aBasis));
        write(j.dump(2));
        try {
            readCheckpointMeta(m_path);
            ADD_FAILURE() << "accepted";
        } catch (const CheckpointError& e) {
            EXPECT_NE(std::string(e.what()).find(m_path + ": " + needle), std::string::npos)
                << e.what();
        }
    }
}

// A resume may change the attention kernel (the same model), never the model: the first
// field that differs is named with both values.
TEST(CheckpointModel, AnotherKernelResumesAnotherModelIsNamed) {
    ModelShape llama = *findModelPreset("llama-3.1-8b");
    ModelShape standard = llama;
    standard.attention = AttentionKernel::Standard;
    EXPECT_EQ(checkpointModelMismatch(llama, standard), "");
    ModelShape nano = *findModelPreset("nano");
    ModelShape flash = nano;
    flash.attention = AttentionKernel::Flash;
    EXPECT_EQ(checkpointModelMismatch(nano, flash), "");

    ModelShape gqa = llama;
    gqa.n_kv_head = 4;
    EXPECT_EQ(checkpointModelMismatch(llama, gqa),
              "model.n_kv_head: the checkpoint's is 8, the config's 4");
    ModelShape tied = llama;
    tied.tied_head = true;
    EXPECT_EQ(checkpointModelMismatch(llama, tied),
              "model.tie_word_embeddings: the checkpoint's is false, the config's true");
    EXPECT_EQ(checkpointModelMismatch(nano, *findModelPreset("llama-nano")).rfind("model.", 0), 0u);
    ModelShape rope = llama;
    rope.rope_scaling.factor = 4;
    EXPECT_NE(checkpointModelMismatch(llama, rope).find("model.rope_scaling: "), std::string::npos);
}

TEST_F(CheckpointMetaFile, RunUuidMustBeAVersionFourUuid) {
    for (const char* bad : {"", "not-a-uuid", "0F8E4C6A-2B1D-4E7F-9A3C-5D6E7F8091A2",
                            "0f8e4c6a-2b1d-1e7f-9a3c-5d6e7f8091a2"}) {
        CheckpointManifest m = valid();
        m.meta.run_uuid = bad;
        expectRefused(m, "run_uuid");
    }
}

TEST_F(CheckpointMetaFile, AnEditOrAFlippedByteFailsTheChecksum) {
    write(checkpointMetaText(valid()));
    std::string text = read();
    const std::size_t at = text.find("\"step\": 12");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 10, "\"step\": 11");
    write(text);
    EXPECT_THROW(
        {
            try {
                readCheckpointMeta(m_path);
            } catch (const CheckpointError& e) {
                EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        CheckpointError);
}

TEST_F(CheckpointMetaFile, EveryFieldIsRangeChecked) {
    using Edit = std::function<void(CheckpointManifest&)>;
    const std::pair<Edit, std::string> cases[] = {
        {[](auto& m) { m.meta.step = -5; }, "step: expected an integer 0..2147483647, got -5"},
        {[](auto& m) { m.meta.step = 9223372036854775807LL; }, "step: expected an integer"},
        {[](auto& m) { m.meta.tokens = -1; }, "tokens: expected an integer"},
        {[](auto& m) { m.meta.tokens = 1LL << 60; }, "tokens: expected an integer"},
        {[](auto& m) { m.meta.run_id = 0; }, "run_id: expected an integer"},
        {[](auto& m) { m.meta.world = 0; }, "world: expected an integer"},
        {[](auto& m) { m.meta.world = 2147483647; }, "world: expected an integer"},
        {[](auto& m) { m.meta.world = 3; }, "no entry for optim-rank2.bin"},
        {[](auto& m) { m.meta.stage = 4; }, "stage: expected an integer 0..3, got 4"},
        {[](auto& m) { m.precision = "fp8"; }, "precision: expected \"fp32\" or \"bf16\""},
        {[](auto& m) { m.shape.n_layer = -1; }, "model.n_layer: expected an integer"},
        {[](auto& m) {
             m.shape.n_layer = 2147483647;
             m.shape.n_embd = 2147483647;
         },
         "more than 2^48 parameters"},
        {[](auto& m) { m.files["model.bin"].size = -1; }, "files.model.bin.size"},
        {[](auto& m) { m.files["model.bin"].fnv1a64 = "xyz"; }, "files.model.bin.fnv1a64"},
        {[](auto& m) { m.files.erase("model.bin"); }, "no entry for model.bin"},
    };
    for (const auto& [edit, needle] : cases) {
        CheckpointManifest m = valid();
        edit(m);
        expectRefused(m, needle);
    }
    // Stage 0: only rank 0 wrote an optimizer shard, whatever the world.
    CheckpointManifest stage0 = valid();
    stage0.meta.stage = 0;
    stage0.meta.world = 8;
    stage0.files.erase("optim-rank1.bin");
    write(checkpointMetaText(stage0));
    EXPECT_EQ(readCheckpointMeta(m_path).meta.world, 8);
}

TEST_F(CheckpointMetaFile, MissingMalformedOrHostileFilesAreErrors) {
    EXPECT_THROW(readCheckpointMeta((m_dir / "absent.json").string()), CheckpointError);
    for (const std::string text :
         {std::string("not json"), std::string("[1, 2]"), std::string(100'000, '[') + "]",
          std::string(R"({"format": 1e999})"), std::string(R"({"format": 3})")}) {
        write(text);
        EXPECT_THROW(readCheckpointMeta(m_path), CheckpointError) << text.substr(0, 40);
    }
}

} // namespace
} // namespace zerolab
