// The config's "model" section: a preset, a custom GPT-2 or Llama shape, the shape of a
// Hugging Face config.json (model.hf_config), or the shape of the weights to start from
// (model.init_from: an llm.c model file's header, or the config.json beside Hugging Face
// safetensors), plus the attention kernel and the training sequence length. The
// parameter count itself lives in runtime/model/model_shape.h.
#include "runtime/config/config_schema.h"
#include "runtime/config/config_sections.h"
#include "runtime/config/hf_shape.h"
#include "runtime/model/family.h"
#include "runtime/model/gpt2/llmc_model_file.h"
#include "runtime/model/llama/llama_hf_names.h"

#include <array>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

namespace zerolab {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// A shape that comes whole from somewhere (a preset, a file), and what to call that
// somewhere in messages. hf: the config.json it came from, whose context check
// (hfContextProblem) says why a longer seq_len is refused.
struct FixedShape {
    ModelShape shape;
    Message origin;
    std::optional<HfModelConfig> hf;
};

// An HfConfigError as the config's finding: "FILE: FIELD: why" (translatable).
Message hfConfigMessage(const HfConfigError& e) {
    if (e.field().empty())
        return Message(ZEROLAB_TR("ConfigCheck", "%1: %2"), {e.file(), e.text()});
    return Message(ZEROLAB_TR("ConfigCheck", "%1: %2: %3"), {e.file(), e.field(), e.text()});
}

// The shape of a Hugging Face config.json, or an error for `path_key`.
std::optional<FixedShape> readHfShape(const std::string& file, const std::string& path_key,
                                      Diagnostics& diags) {
    try {
        HfModelConfig hf = readHfConfig(file);
        ModelShape s = hfModelShape(hf);
        return FixedShape{s, Message(ZEROLAB_TR("ConfigCheck", "the shape in %1"), {file}),
                          std::move(hf)};
    } catch (const HfConfigError& e) {
        diags.error(path_key, hfConfigMessage(e));
        return std::nullopt;
    }
}

// The shape model.init_from decides, or an error for `path_key`: an llm.c model file's
// header (llmc_model_file.h validates it), or the config.json beside Hugging Face
// safetensors, whose tensors are then checked against that shape (names, shapes, dtypes;
// the header only: the weights are read when training starts).
std::optional<FixedShape> readInitShape(const std::string& file, const std::string& path_key,
                                        Diagnostics& diags) {
    if (isHfWeightsPath(file)) {
        std::optional<FixedShape> fixed = readHfShape(hfConfigBeside(file), path_key, diags);
        if (!fixed)
            return std::nullopt;
        try {
            checkLlamaHfCheckpoint(SafetensorsCheckpoint(file), file, fixed->shape);
        } catch (const SafetensorsError& e) {
            // The safetensors reader speaks English only (it has no Message).
            diags.error(path_key, Message(std::string(e.what())));
            return std::nullopt;
        }
        return fixed;
    }
    try {
        return FixedShape{readLlmcModelHeader(file),
                          Message(ZEROLAB_TR("ConfigCheck", "the shape in %1"), {file}),
                          std::nullopt};
    } catch (const LlmcModelFileError& e) {
        // The model file's reader speaks English only (it has no Message).
        diags.error(path_key, Message(std::string(e.what())));
        return std::nullopt;
    }
}

// The family's attention kernel when model.attention is not given. GPT-2 keeps the
// standard kernel, so that every GPT-2 number stays what it was; the Llama family has
// only flash attention (standardAttentionRefusal).
AttentionKernel defaultAttention(Family f) {
    return f == Family::Llama ? AttentionKernel::Flash : AttentionKernel::Standard;
}

// Why `a` cannot compute family `f`'s attention, or nullopt.
std::optional<Message> attentionRefusal(Family f, AttentionKernel a) {
    if (f == Family::Llama && a == AttentionKernel::Standard)
        return Message(ZEROLAB_TR("ConfigCheck",
                                  "\"standard\" is not available for the Llama family: the "
                                  "standard kernel takes packed multi-head q, k and v, and "
                                  "grouped-query attention would need copies of the shared "
                                  "key/value heads; use \"flash\" (the family's default)"));
    return std::nullopt;
}

struct ShapeKey {
    const char* key;
    int ModelShape::*field;
    std::int64_t max;
};
// vocab_size is padded to a multiple of 128 (padVocab), which must fit an int.
constexpr std::array<ShapeKey, 4> kFixedShapeKeys = {{
    {"n_layer", &ModelShape::n_layer, kIntMax},
    {"n_head", &ModelShape::n_head, kIntMax},
    {"n_embd", &ModelShape::n_embd, kIntMax},
    {"vocab_size", &ModelShape::vocab_size, kMaxVocab},
}};

// The Llama family's own keys, named as Hugging Face's config.json names them.
constexpr std::array<ShapeKey, 3> kLlamaIntKeys = {{
    {"n_kv_head", &ModelShape::n_kv_head, kIntMax},
    {"head_dim", &ModelShape::head_dim, kIntMax},
    {"intermediate_size", &ModelShape::ffn_dim, kIntMax},
}};
struct BoolKey {
    const char* key;
    bool ModelShape::*field;
};
constexpr std::array<BoolKey, 2> kLlamaBoolKeys = {{
    {"tie_word_embeddings", &ModelShape::tied_head},
    {"qkv_bias", &ModelShape::qkv_bias},
}};
struct NumberKey {
    const char* key;
    double ModelShape::*field;
};
constexpr std::array<NumberKey, 2> kLlamaNumberKeys = {{
    {"rope_theta", &ModelShape::rope_theta},
    {"rms_norm_eps", &ModelShape::norm_eps},
}};

// The Llama keys present in the section, in schema order.
std::vector<const char*> llamaKeysGiven(const SectionReader& r) {
    std::vector<const char*> given;
    for (const ShapeKey& k : kLlamaIntKeys)
        if (r.has(k.key))
            given.push_back(k.key);
    for (const BoolKey& k : kLlamaBoolKeys)
        if (r.has(k.key))
            given.push_back(k.key);
    for (const NumberKey& k : kLlamaNumberKeys)
        if (r.has(k.key))
            given.push_back(k.key);
    return given;
}

std::string numberText(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

const Message kPositiveNumber(ZEROLAB_TR("ConfigCheck", "a number > 0"));

// With a preset or a model file the shape is fixed: shape keys may only repeat it.
void checkMatches(SectionReader& r, const ModelShape& shape, const Message& origin) {
    auto differs = [&](const char* key, const std::string& given, const std::string& expected) {
        r.diags().error(r.pathOf(key),
                        Message(ZEROLAB_TR("ConfigCheck", "%1 differs from %2 (%3); remove it, "
                                                          "or give a custom shape instead"),
                                {given, origin, expected}));
    };
    auto check = [&](const char* key, int expected) {
        auto v = r.getInt(key, 1, kIntMax);
        if (v && *v != expected)
            differs(key, std::to_string(*v), std::to_string(expected));
    };
    for (const ShapeKey& k : kFixedShapeKeys)
        check(k.key, shape.*k.field);
    check("padded_vocab_size", shape.padded_vocab_size);
    if (shape.family != Family::Llama)
        return; // the Llama keys with a GPT-2 shape: refused by checkLlamaKeysAbsent
    check("n_kv_head", shape.kvHeads());
    check("head_dim", shape.headDim());
    check("intermediate_size", shape.ffn_dim);
    for (const BoolKey& k : kLlamaBoolKeys)
        if (auto v = r.getBool(k.key); v && *v != shape.*k.field)
            differs(k.key, *v ? "true" : "false", shape.*k.field ? "true" : "false");
    for (const NumberKey& k : kLlamaNumberKeys)
        if (auto v = r.getNumber(
                k.key, [](double x) { return x > 0; }, kPositiveNumber);
            v && *v != shape.*k.field)
            differs(k.key, numberText(*v), numberText(shape.*k.field));
}

// A GPT-2 shape has none of the Llama keys: each given one is an error naming it.
void checkLlamaKeysAbsent(const SectionReader& r, Diagnostics& diags, const Message& what) {
    for (const char* key : llamaKeysGiven(r))
        diags.error(r.pathOf(key),
                    Message(ZEROLAB_TR("ConfigCheck", "a key of the Llama family, and %1 is a "
                                                      "GPT-2 model; remove it (or give "
                                                      "model.family \"llama\")"),
                            {what}));
}

// model.family against the family of a fixed shape.
void checkFamilyMatches(SectionReader& r, std::optional<Family> family, const FixedShape& fixed) {
    if (family && *family != fixed.shape.family)
        r.diags().error(r.pathOf("family"),
                        Message(ZEROLAB_TR("ConfigCheck", "\"%1\" differs from %2 (\"%3\")"),
                                {std::string(modelFamily(*family).name), fixed.origin,
                                 std::string(modelFamily(fixed.shape.family).name)}));
}

// The Llama keys of a custom shape: defaults as transformers' LlamaConfig sets them
// (n_kv_head = n_head, head_dim = n_embd / n_head, untied, no biases, rope_theta 10000,
// rms_norm_eps 1e-6), intermediate_size required. Returns false after an error.
bool readLlamaKeys(SectionReader& r, ModelShape& s) {
    bool ok = true;
    s.n_kv_head = s.n_head;
    s.head_dim = 0;
    s.tied_head = false;
    s.qkv_bias = false;
    s.rope_theta = 10000.0;
    s.norm_eps = 1e-6;
    s.rope_scaling = {};
    for (const ShapeKey& k : kLlamaIntKeys) {
        if (auto v = r.getInt(k.key, 1, k.max))
            s.*k.field = static_cast<int>(*v);
        else if (r.has(k.key))
            ok = false;
    }
    if (!r.has("intermediate_size")) {
        r.diags().error(r.pathOf("intermediate_size"),
                        Message(ZEROLAB_TR("ConfigCheck", "required for a custom Llama shape "
                                                          "(the MLP's width; or give "
                                                          "model.preset or model.hf_config)")));
        ok = false;
    }
    for (const BoolKey& k : kLlamaBoolKeys) {
        if (auto v = r.getBool(k.key))
            s.*k.field = *v;
        else if (r.has(k.key))
            ok = false;
    }
    for (const NumberKey& k : kLlamaNumberKeys) {
        if (auto v = r.getNumber(
                k.key, [](double x) { return x > 0; }, kPositiveNumber))
            s.*k.field = *v;
        else if (r.has(k.key))
            ok = false;
    }
    if (!ok)
        return false;
    if (s.n_kv_head > s.n_head || s.n_head % s.n_kv_head != 0) {
        r.diags().error(
            r.pathOf("n_kv_head"),
            Message(ZEROLAB_TR("ConfigCheck", "%1 does not divide n_head %2: grouped-query "
                                              "attention shares each key/value head among a "
                                              "whole number of query heads"),
                    {std::to_string(s.n_kv_head), std::to_string(s.n_head)}));
        ok = false;
    }
    if (!r.has("head_dim")) {
        if (s.n_embd % s.n_head != 0) {
            r.diags().error(r.pathOf("n_embd"),
                            Message(ZEROLAB_TR("ConfigCheck", "%1 is not divisible by n_head "
                                                              "%2 (or give model.head_dim)"),
                                    {std::to_string(s.n_embd), std::to_string(s.n_head)}));
            return false;
        }
        s.head_dim = s.n_embd / s.n_head;
    }
    if (s.head_dim % 2 != 0) {
        r.diags().error(
            r.pathOf(r.has("head_dim") ? "head_dim" : "n_embd"),
            Message(ZEROLAB_TR("ConfigCheck", "head_dim %1 is odd: rotary position embedding "
                                              "rotates pairs of dimensions, so a head's "
                                              "dimension must be even"),
                    {std::to_string(s.head_dim)}));
        ok = false;
    }
    if (static_cast<std::int64_t>(s.n_head) * s.head_dim > kIntMax) {
        r.diags().error(r.pathOf("head_dim"),
                        Message(ZEROLAB_TR("ConfigCheck", "n_head %1 x head_dim %2 exceeds "
                                                          "2147483647"),
                                {std::to_string(s.n_head), std::to_string(s.head_dim)}));
        ok = false;
    }
    return ok;
}

// A custom shape: every key required; seq_len is both the maximum context and T.
void parseCustomShape(SectionReader& r, Family family, ModelConfig& out) {
    Diagnostics& diags = r.diags();
    ModelShape s;
    s.family = family;
    bool complete = true;
    for (const ShapeKey& k : kFixedShapeKeys) {
        if (!r.has(k.key)) {
            diags.error(r.pathOf(k.key),
                        Message(ZEROLAB_TR("ConfigCheck", "required for a custom shape (or give "
                                                          "model.preset)")));
            complete = false;
        } else if (auto v = r.getInt(k.key, 1, k.max)) {
            s.*k.field = static_cast<int>(*v);
        } else {
            complete = false;
        }
    }
    if (!r.has("seq_len")) {
        diags.error(r.pathOf("seq_len"),
                    Message(ZEROLAB_TR("ConfigCheck", "required for a custom shape (or give "
                                                      "model.preset)")));
        complete = false;
    } else if (auto v = r.getInt("seq_len", 1, kIntMax)) {
        s.seq_len = static_cast<int>(*v);
    } else {
        complete = false;
    }
    if (family != Family::Llama)
        checkLlamaKeysAbsent(r, diags, Message(ZEROLAB_TR("ConfigCheck", "this custom shape")));
    if (!complete)
        return;
    if (family == Family::Llama) {
        // Hugging Face's embedding has exactly vocab_size rows: a Llama model is never padded.
        s.padded_vocab_size = s.vocab_size;
        if (auto vp = r.getInt("padded_vocab_size", 1, kIntMax); vp && *vp != s.vocab_size)
            diags.error(
                r.pathOf("padded_vocab_size"),
                Message(ZEROLAB_TR("ConfigCheck", "%1 differs from vocab_size %2: the Llama family "
                                                  "does not pad its vocabulary (Hugging Face's "
                                                  "embedding has vocab_size rows); remove it"),
                        {std::to_string(*vp), std::to_string(s.vocab_size)}));
        if (!readLlamaKeys(r, s))
            return;
    } else {
        s.padded_vocab_size = padVocab(s.vocab_size);
        if (auto vp = r.getInt("padded_vocab_size", 1, kIntMax)) {
            if (*vp < s.vocab_size)
                diags.error(r.pathOf("padded_vocab_size"),
                            Message(ZEROLAB_TR("ConfigCheck", "%1 is below vocab_size %2"),
                                    {std::to_string(*vp), std::to_string(s.vocab_size)}));
            s.padded_vocab_size = static_cast<int>(*vp);
        }
        if (s.n_embd % s.n_head != 0)
            diags.error(r.pathOf("n_embd"),
                        Message(ZEROLAB_TR("ConfigCheck", "%1 is not divisible by n_head %2"),
                                {std::to_string(s.n_embd), std::to_string(s.n_head)}));
    }
    if (!checkedParamCount(s))
        diags.error(r.path(),
                    Message(ZEROLAB_TR("ConfigCheck",
                                       "n_layer %1, n_embd %2, seq_len %3 and "
                                       "padded_vocab_size %4 make more than 2^48 parameters"),
                            {std::to_string(s.n_layer), std::to_string(s.n_embd),
                             std::to_string(s.seq_len), std::to_string(s.padded_vocab_size)}));
    s.attention = defaultAttention(family);
    out.shape = s;
    out.seq_len = s.seq_len;
}

// seq_len against a fixed shape's context: at most the preset's or file's maximum
// context (a Hugging Face config says why: its positions or its sliding window).
void readSeqLen(SectionReader& r, const FixedShape& fixed, ModelConfig& out) {
    out.seq_len = fixed.shape.seq_len;
    const auto t = r.getInt("seq_len", 1, kIntMax);
    if (!t)
        return;
    if (fixed.hf) {
        if (auto why = hfContextProblem(*fixed.hf, *t)) {
            r.diags().error(r.pathOf("seq_len"), *why);
            return;
        }
    }
    if (*t > fixed.shape.seq_len)
        r.diags().error(
            r.pathOf("seq_len"),
            Message(ZEROLAB_TR("ConfigCheck", "%1 exceeds the maximum context %2 of %3"),
                    {std::to_string(*t), std::to_string(fixed.shape.seq_len), fixed.origin}));
    else
        out.seq_len = static_cast<int>(*t);
}

} // namespace

void parseModel(const nlohmann::json* section, Diagnostics& diags, ModelConfig& out) {
    const std::string path = "model";
    if (section != nullptr)
        checkKeys(*section, path, kModelSchema, UnknownKeyPolicy::Error, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getChoice("recompute", {kRecomputeNames.begin(), kRecomputeNames.end()}))
        out.recompute = static_cast<Recompute>(*v);

    std::vector<std::string_view> family_names;
    for (const ModelFamily* f : modelFamilies())
        family_names.push_back(f->name);
    std::optional<Family> family;
    if (auto v = r.getChoice("family", family_names))
        family = modelFamilies()[*v]->id;
    else if (r.has("family"))
        return;
    std::optional<AttentionKernel> attention;
    if (auto v =
            r.getChoice("attention", {kAttentionKernelNames.begin(), kAttentionKernelNames.end()}))
        attention = static_cast<AttentionKernel>(*v);
    else if (r.has("attention"))
        return;

    std::optional<std::string> preset = r.getString("preset");
    std::optional<std::string> init_from = r.getString("init_from");
    if (init_from && init_from->empty())
        init_from.reset();
    std::optional<std::string> hf_config = r.getString("hf_config");
    if (hf_config && hf_config->empty())
        hf_config.reset();
    if (preset && !findModelPreset(*preset)) {
        std::vector<std::string_view> names;
        for (const auto& p : modelPresets())
            names.push_back(p.name);
        std::string list;
        for (auto n : names)
            list += (list.empty() ? "\"" : ", \"") + std::string(n) + "\"";
        diags.error(
            r.pathOf("preset"),
            Message(ZEROLAB_TR("ConfigCheck", "unknown preset \"%1\"; expected one of %2%3"),
                    {*preset, list, didYouMean(*preset, names)}));
        return;
    }

    // The sources of a whole shape, strongest first: the weights to start from, a
    // config.json, a preset. The first decides; every other must describe the same model
    // (sameModel: the attention kernel is the config's choice, not the model's).
    std::optional<FixedShape> fixed;
    if (init_from) {
        out.init_from = *init_from;
        fixed = readInitShape(*init_from, r.pathOf("init_from"), diags);
        if (!fixed)
            return;
    }
    if (hf_config) {
        out.hf_config = *hf_config;
        std::optional<FixedShape> hf = readHfShape(*hf_config, r.pathOf("hf_config"), diags);
        if (!hf)
            return;
        if (!fixed) {
            fixed = std::move(hf);
        } else if (!fixed->shape.sameModel(hf->shape)) {
            diags.error(r.pathOf("hf_config"),
                        Message(ZEROLAB_TR("ConfigCheck", "%1 differs from %2; remove one of "
                                                          "them"),
                                {hf->origin, fixed->origin}));
            return;
        }
    }
    if (preset) {
        const ModelShape p = *findModelPreset(*preset);
        if (!fixed) {
            fixed = FixedShape{p, Message(ZEROLAB_TR("ConfigCheck", "preset \"%1\""), {*preset}),
                               std::nullopt};
        } else if (!p.sameModel(fixed->shape)) {
            diags.error(r.pathOf("preset"),
                        Message(ZEROLAB_TR("ConfigCheck",
                                           "preset \"%1\" differs from %2; remove one of them"),
                                {*preset, fixed->origin}));
            return;
        }
        out.preset = *preset;
    }
    if (!fixed) {
        bool any = false;
        for (const ShapeKey& k : kFixedShapeKeys)
            any = any || r.has(k.key);
        if (!any && !family) {
            // No shape at all: the smallest preset.
            fixed = FixedShape{
                *findModelPreset("nano"),
                Message(ZEROLAB_TR("ConfigCheck", "preset \"%1\""), {std::string("nano")}),
                std::nullopt};
            out.preset = "nano";
        }
    }

    if (fixed) {
        out.shape = fixed->shape;
        checkFamilyMatches(r, family, *fixed);
        if (fixed->shape.family != Family::Llama)
            checkLlamaKeysAbsent(r, diags, fixed->origin);
        checkMatches(r, fixed->shape, fixed->origin);
        readSeqLen(r, *fixed, out);
    } else {
        parseCustomShape(r, family.value_or(Family::Gpt2), out);
    }

    if (attention) {
        if (auto why = attentionRefusal(out.shape.family, *attention))
            diags.error(r.pathOf("attention"), *why);
        else
            out.shape.attention = *attention;
    } else {
        out.shape.attention = defaultAttention(out.shape.family);
    }
}

} // namespace zerolab
