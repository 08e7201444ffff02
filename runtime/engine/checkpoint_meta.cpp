// meta.json: the manifest as JSON with its own FNV-1a checksum, and the reader that
// verifies the checksum and range-checks every field before a resume acts on it.
#include "runtime/engine/checkpoint_meta.h"

#include "runtime/config/json_text.h"
#include "runtime/engine/fnv1a.h"
#include "runtime/files/bounded_file.h"
#include "runtime/planner/planner.h"
#include "storage/run_uuid.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace zerolab {

namespace {

constexpr int kFormatWithoutChecksum = 1;
constexpr int kFormatWithoutUuid = 2;
constexpr int kFormatWithLegacyBasis = 3;
constexpr int kFormat = 4;
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

nlohmann::json manifestJson(const CheckpointManifest& m) {
    nlohmann::json files = nlohmann::json::object();
    for (const auto& [name, sum] : m.files)
        files[name] = {{"size", sum.size}, {"fnv1a64", sum.fnv1a64}};
    return {{"format", kFormat},
            {"step", m.meta.step},
            {"tokens", m.meta.tokens},
            {"run_id", m.meta.run_id},
            {"run_uuid", m.meta.run_uuid},
            {"world", m.meta.world},
            {"stage", m.meta.stage},
            {"precision", m.precision},
            {"model",
             {{"n_layer", m.shape.n_layer},
              {"n_head", m.shape.n_head},
              {"n_embd", m.shape.n_embd},
              {"seq_len", m.shape.seq_len},
              {"vocab_size", m.shape.vocab_size},
              {"padded_vocab_size", m.shape.padded_vocab_size}}},
            {"files", files}};
}

} // namespace

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
    const auto dim = [&](const char* key) {
        return static_cast<int>(model.integer(key, 1, kIntMax));
    };
    m.shape = {dim("n_layer"), dim("n_head"),     dim("n_embd"),
               dim("seq_len"), dim("vocab_size"), dim("padded_vocab_size")};
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
    if (!m.files.count("model.bin"))
        top.fail("files", "no entry for model.bin");
    return m;
}

} // namespace zerolab
