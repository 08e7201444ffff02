// The config's "model" section: a preset, a custom GPT-2 shape, or the shape read
// from the header of an llm.c model file (model.init_from), plus the training
// sequence length. The parameter count itself lives in runtime/model/model_shape.h.
#include "runtime/config/config_schema.h"
#include "runtime/config/config_sections.h"
#include "runtime/model/gpt2/llmc_model_file.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

namespace zerolab {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
// The shape in the header of an llm.c model file (llmc_model_file.h validates it),
// or an error for `path_key`.
std::optional<ModelShape> readLlmcShape(const std::string& file, const std::string& path_key,
                                        Diagnostics& diags) {
    try {
        return readLlmcModelHeader(file);
    } catch (const LlmcModelFileError& e) {
        // The model file's reader speaks English only (it has no Message).
        diags.error(path_key, Message(std::string(e.what())));
        return std::nullopt;
    }
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

// With a preset or a model file the shape is fixed: shape keys may only repeat it.
void checkMatches(SectionReader& r, const ModelShape& shape, const Message& origin) {
    auto check = [&](const char* key, int expected) {
        auto v = r.getInt(key, 1, kIntMax);
        if (v && *v != expected)
            r.diags().error(r.pathOf(key),
                            Message(ZEROLAB_TR("ConfigCheck", "%1 differs from %2 (%3); remove it, "
                                                              "or give a custom shape instead"),
                                    {std::to_string(*v), origin, std::to_string(expected)}));
    };
    for (const ShapeKey& k : kFixedShapeKeys)
        check(k.key, shape.*k.field);
    check("padded_vocab_size", shape.padded_vocab_size);
}

} // namespace

void parseModel(const nlohmann::json* section, Diagnostics& diags, ModelConfig& out) {
    const std::string path = "model";
    if (section != nullptr)
        checkKeys(*section, path, kModelSchema, UnknownKeyPolicy::Error, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getChoice("recompute", {kRecomputeNames.begin(), kRecomputeNames.end()}))
        out.recompute = static_cast<Recompute>(*v);

    std::optional<std::string> preset = r.getString("preset");
    std::optional<std::string> init_from = r.getString("init_from");
    if (init_from && init_from->empty())
        init_from.reset();
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

    std::optional<ModelShape> fixed;
    Message origin;
    if (init_from) {
        out.init_from = *init_from;
        fixed = readLlmcShape(*init_from, r.pathOf("init_from"), diags);
        if (!fixed)
            return;
        origin = Message(ZEROLAB_TR("ConfigCheck", "the shape in %1"), {*init_from});
        if (preset) {
            ModelShape p = *findModelPreset(*preset);
            if (p != *fixed) {
                diags.error(r.pathOf("preset"),
                            Message(ZEROLAB_TR("ConfigCheck",
                                               "preset \"%1\" differs from %2; remove one of them"),
                                    {*preset, origin}));
                return;
            }
            out.preset = *preset;
        }
    } else if (preset) {
        fixed = findModelPreset(*preset);
        origin = Message(ZEROLAB_TR("ConfigCheck", "preset \"%1\""), {*preset});
        out.preset = *preset;
    } else {
        bool any = false;
        for (const ShapeKey& k : kFixedShapeKeys)
            any = any || r.has(k.key);
        if (!any) {
            // No shape at all: the smallest preset.
            fixed = findModelPreset("nano");
            origin = Message(ZEROLAB_TR("ConfigCheck", "preset \"%1\""), {std::string("nano")});
            out.preset = "nano";
        }
    }

    if (fixed) {
        out.shape = *fixed;
        checkMatches(r, *fixed, origin);
        out.seq_len = fixed->seq_len;
        if (auto t = r.getInt("seq_len", 1, kIntMax)) {
            if (*t > fixed->seq_len)
                diags.error(
                    r.pathOf("seq_len"),
                    Message(ZEROLAB_TR("ConfigCheck", "%1 exceeds the maximum context %2 of %3"),
                            {std::to_string(*t), std::to_string(fixed->seq_len), origin}));
            else
                out.seq_len = static_cast<int>(*t);
        }
        return;
    }

    // A custom shape: every key required; seq_len is both the maximum context and T.
    ModelShape s;
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
    if (!complete)
        return;
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
    if (!checkedParamCount(s))
        diags.error(path,
                    Message(ZEROLAB_TR("ConfigCheck",
                                       "n_layer %1, n_embd %2, seq_len %3 and "
                                       "padded_vocab_size %4 make more than 2^48 parameters"),
                            {std::to_string(s.n_layer), std::to_string(s.n_embd),
                             std::to_string(s.seq_len), std::to_string(s.padded_vocab_size)}));
    out.shape = s;
    out.seq_len = s.seq_len;
}

} // namespace zerolab
