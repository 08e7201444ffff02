// meta.json: the manifest as JSON with its own FNV-1a checksum, and the reader that
// verifies the checksum and range-checks every field before a resume acts on it.
#include "runtime/engine/checkpoint_meta.h"

#include "runtime/config/json_text.h"
#include "runtime/engine/fnv1a.h"
#include "runtime/engine/model_weights.h"
#include "runtime/files/bounded_file.h"
#include "runtime/model/family.h"
#include "runtime/planner/planner.h"
#include "storage/run_uuid.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace zerolab {

namespace {

constexpr int kFormatWithoutChecksum = 1;
constexpr int kFormatWithoutUuid = 2;
constexpr int kFormatWithLegacyBasis = 3;
constexpr int kFormatGpt2Only = 4;
constexpr int kFormat = 5;
constexpr const char* kChecksumKey = "fnv1a64";
constexpr long long kIntMax = std::numeric_limits<int>::max();
constexpr long long kInt64Max = std::numeric_limits<long long>::max();

// The checksum covers the compact dump of the document without its checksum key:
// nlohmann::json keeps keys sorted, so the writer and the reader dump the same text.
std::string checksumOf(const nlohmann::json& withoutChecksum, std::uint64_t basis) {
    const std::string text = withoutChecksum.dump();
    return fnv1aHex(fnv1a(text.data(), text.size(), basis));
}

bool isChecksum(const std::string& s) {
    if (s.size() != 16)
        return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

// Typed, range-checked reads of one object of meta.json; errors name the file, the
// field's JSON path and its value.
class MetaReader {
public:
    MetaReader(const std::string& file, const nlohmann::json& obj, std::string path)
        : m_file(file), m_obj(obj), m_path(std::move(path)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& why) const {
        const std::string at = m_path.empty() ? key : m_path + "." + key;
        throw CheckpointError(m_file + ": " + at + ": " + why);
    }

    const nlohmann::json& field(const std::string& key) const {
        const auto it = m_obj.find(key);
        if (it == m_obj.end())
            fail(key, "missing");
        return *it;
    }

    long long integer(const std::string& key, long long lo, long long hi) const {
        const nlohmann::json& v = field(key);
        const bool fits = v.is_number_integer() &&
                          (v.is_number_unsigned()
                               ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(kInt64Max)
                               : true);
        if (!fits || v.get<long long>() < lo || v.get<long long>() > hi)
            fail(key, "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi) +
                          ", got " + describeJson(v));
        return v.get<long long>();
    }

    std::string string(const std::string& key) const {
        const nlohmann::json& v = field(key);
        if (!v.is_string())
            fail(key, "expected a string, got " + describeJson(v));
        return v.get<std::string>();
    }

    double number(const std::string& key, bool positive) const {
        const nlohmann::json& v = field(key);
        if (!v.is_number() || !std::isfinite(v.get<double>()) ||
            (positive ? v.get<double>() <= 0 : v.get<double>() < 0))
            fail(key, std::string("expected a number ") + (positive ? "> 0" : ">= 0") + ", got " +
                          describeJson(v));
        return v.get<double>();
    }

    bool boolean(const std::string& key) const {
        const nlohmann::json& v = field(key);
        if (!v.is_boolean())
            fail(key, "expected true or false, got " + describeJson(v));
        return v.get<bool>();
    }

    const nlohmann::json& object(const std::string& key) const {
        const nlohmann::json& v = field(key);
        if (!v.is_object())
            fail(key, "expected an object, got " + describeJson(v));
        return v;
    }

private:
    const std::string& m_file;
    const nlohmann::json& m_obj;
    std::string m_path;
};

constexpr std::array<std::string_view, 3> kRopeTypeNames = {"none", "linear", "llama3"};

// Every field of the shape (format 5), GPT-2's too: the family's unused fields then hold
// their defaults, which read back to the same shape.
nlohmann::json modelJson(const ModelShape& s) {
    const RopeScalingSpec& r = s.rope_scaling;
    return {{"family", familyOf(s).name},
            {"attention", attentionKernelName(s.attention)},
            {"n_layer", s.n_layer},
            {"n_head", s.n_head},
            {"n_embd", s.n_embd},
            {"seq_len", s.seq_len},
            {"vocab_size", s.vocab_size},
            {"padded_vocab_size", s.padded_vocab_size},
            {"n_kv_head", s.n_kv_head},
            {"head_dim", s.head_dim},
            {"intermediate_size", s.ffn_dim},
            {"tie_word_embeddings", s.tied_head},
            {"qkv_bias", s.qkv_bias},
            {"rms_norm_eps", s.norm_eps},
            {"rope_theta", s.rope_theta},
            {"rope_scaling",
             {{"type", kRopeTypeNames[static_cast<std::size_t>(r.type)]},
              {"factor", r.factor},
              {"low_freq_factor", r.low_freq_factor},
              {"high_freq_factor", r.high_freq_factor},
              {"original_max_position_embeddings", r.original_max_position_embeddings}}}};
}

// The shape of meta.json's "model": the six GPT-2 fields up to format 4 (a GPT-2 model
// with the standard kernel, as every checkpoint then was), every field from format 5.
ModelShape readModel(const MetaReader& model, long long format, const std::string& file) {
    const auto dim = [&](const char* key) {
        return static_cast<int>(model.integer(key, 1, kIntMax));
    };
    ModelShape s;
    s.n_layer = dim("n_layer");
    s.n_head = dim("n_head");
    s.n_embd = dim("n_embd");
    s.seq_len = dim("seq_len");
    s.vocab_size = dim("vocab_size");
    s.padded_vocab_size = dim("padded_vocab_size");
    if (format <= kFormatGpt2Only)
        return s;
    const std::string family = model.string("family");
    const ModelFamily* f = findModelFamily(family);
    if (f == nullptr)
        model.fail("family", "unknown model family " + describeJson(family));
    s.family = f->id;
    const std::string attention = model.string("attention");
    const auto a = attentionKernelFromName(attention);
    if (!a)
        model.fail("attention",
                   "expected \"standard\" or \"flash\", got " + describeJson(attention));
    s.attention = *a;
    const auto optional_dim = [&](const char* key) {
        return static_cast<int>(model.integer(key, 0, kIntMax));
    };
    s.n_kv_head = optional_dim("n_kv_head");
    s.head_dim = optional_dim("head_dim");
    s.ffn_dim = optional_dim("intermediate_size");
    s.tied_head = model.boolean("tie_word_embeddings");
    s.qkv_bias = model.boolean("qkv_bias");
    s.norm_eps = model.number("rms_norm_eps", true);
    s.rope_theta = model.number("rope_theta", true);
    const MetaReader rope(file, model.object("rope_scaling"), "model.rope_scaling");
    const std::string type = rope.string("type");
    const auto t = std::find(kRopeTypeNames.begin(), kRopeTypeNames.end(), type);
    if (t == kRopeTypeNames.end())
        rope.fail("type", "expected \"none\", \"linear\" or \"llama3\", got " + describeJson(type));
    s.rope_scaling.type = static_cast<RopeScalingType>(t - kRopeTypeNames.begin());
    s.rope_scaling.factor = rope.number("factor", true);
    s.rope_scaling.low_freq_factor = rope.number("low_freq_factor", false);
    s.rope_scaling.high_freq_factor = rope.number("high_freq_factor", false);
    s.rope_scaling.original_max_position_embeddings =
        static_cast<int>(rope.integer("original_max_position_embeddings", 0, kIntMax));
    return s;
}

nlohmann::json manifestJson(const CheckpointManifest& m) {
    nlohmann::json files = nlohmann::json::object();
    for (const auto& [name, sum] : m.files)
        files[name] = {{"size", sum.size}, {"fnv1a64", sum.fnv1a64}};
    return {{"format", kFormat},       {"step", m.meta.step},         {"tokens", m.meta.tokens},
            {"run_id", m.meta.run_id}, {"run_uuid", m.meta.run_uuid}, {"world", m.meta.world},
            {"stage", m.meta.stage},   {"precision", m.precision},    {"model", modelJson(m.shape)},
            {"files", files}};
}

} // namespace

std::string checkpointModelMismatch(const ModelShape& checkpoint, const ModelShape& config) {
    // meta.json's own fields, so that the message names what the file holds; the kernel
    // is the config's choice (ModelShape::sameModel), never a reason to refuse.
    nlohmann::json a = modelJson(checkpoint), b = modelJson(config);
    a.erase("attention");
    b.erase("attention");
    for (const auto& [key, value] : a.items())
        if (b[key] != value)
            return "model." + key + ": the checkpoint's is " + value.dump() + ", the config's " +
                   b[key].dump();
    return {};
}

std::string checkpointOptimFileName(int rank) {
    return "optim-rank" + std::to_string(rank) + ".bin";
}

std::string checkpointMetaText(const CheckpointManifest& m) {
    nlohmann::json j = manifestJson(m);
    const std::string sum = checksumOf(j, kFnv1aBasis);
    j[kChecksumKey] = sum;
    return j.dump(2) + "\n";
}

CheckpointManifest readCheckpointMeta(const std::string& path) {
    const BoundedFileText file = readBoundedTextFile(path);
    if (!file.text)
        throw CheckpointError(path + ": " + file.error + " (is this a zerolab checkpoint folder?)");
    JsonText<nlohmann::json> parsed = parseJsonText<nlohmann::json>(*file.text);
    if (parsed.error)
        throw CheckpointError(path + ": not valid JSON: " +
                              (parsed.error->path.empty() ? "" : parsed.error->path + ": ") +
                              parsed.error->message);
    nlohmann::json& doc = *parsed.doc;
    if (!doc.is_object())
        throw CheckpointError(path + ": expected a JSON object, got " + describeJson(doc));

    const MetaReader top(path, doc, "");
    const long long format = top.integer("format", kFormatWithoutChecksum, kFormat);
    CheckpointManifest m;
    m.checksum_basis = format <= kFormatWithLegacyBasis ? kFnv1aLegacyBasis : kFnv1aBasis;
    if (format >= kFormatWithoutUuid) {
        const std::string recorded = top.string(kChecksumKey);
        doc.erase(kChecksumKey);
        const std::string actual = checksumOf(doc, m.checksum_basis);
        if (recorded != actual)
            throw CheckpointError(
                path + ": checksum mismatch (corrupted or edited): " + kChecksumKey + " is " +
                describeJson(recorded) + ", the content's is \"" + actual + "\"");
    }

    m.meta.step = top.integer("step", 0, kIntMax);
    m.meta.tokens = top.integer("tokens", 0, kMaxCheckpointTokens);
    m.meta.run_id = top.integer("run_id", 1, kInt64Max);
    if (format > kFormatWithoutUuid) {
        m.meta.run_uuid = top.string("run_uuid");
        if (!isRunUuid(m.meta.run_uuid))
            top.fail("run_uuid", "expected a version-4 uuid, got " + describeJson(m.meta.run_uuid));
    }
    m.meta.stage = static_cast<int>(top.integer("stage", 0, 3));
    m.precision = top.string("precision");
    if (m.precision != "fp32" && m.precision != "bf16")
        top.fail("precision", "expected \"fp32\" or \"bf16\", got " + describeJson(m.precision));

    const MetaReader model(path, top.object("model"), "model");
    m.shape = readModel(model, format, path);
    if (!checkedParamCount(m.shape))
        model.fail("n_layer", "the shape makes more than 2^48 parameters");

    const nlohmann::json& files = top.object("files");
    for (const auto& [name, entry] : files.items()) {
        const MetaReader f(path, entry, "files." + shortened(name, 60));
        if (!entry.is_object())
            top.fail("files." + shortened(name, 60),
                     "expected an object, got " + describeJson(entry));
        CheckpointFileSum sum;
        sum.size = f.integer("size", 0, kInt64Max);
        sum.fnv1a64 = f.string("fnv1a64");
        if (!isChecksum(sum.fnv1a64))
            f.fail("fnv1a64", "expected 16 hex digits, got " + describeJson(sum.fnv1a64));
        m.files[name] = sum;
    }
    m.meta.world = static_cast<int>(top.integer("world", 1, kMaxWorld));
    for (int r = 0; r < (m.meta.stage == 0 ? 1 : m.meta.world); ++r)
        if (!m.files.count(checkpointOptimFileName(r)))
            top.fail("files", "no entry for " + checkpointOptimFileName(r) + " (world " +
                                  std::to_string(m.meta.world) + ", stage " +
                                  std::to_string(m.meta.stage) + ")");
    if (const std::string model_file = modelWeightsFileName(m.shape); !m.files.count(model_file))
        top.fail("files", "no entry for " + model_file);
    return m;
}

} // namespace zerolab
