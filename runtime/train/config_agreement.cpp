// configMismatch: FNV-1a hashes gathered on rank 0, then (only on a mismatch) the settings
// themselves, compared key by key; the verdict broadcast to every rank.
#include "runtime/train/config_agreement.h"

#include "runtime/config/json_text.h"
#include "runtime/engine/fnv1a.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace zerolab {

namespace {

// At most this many differing keys are named per rank, and ranks in all (the message
// stays readable whatever the world).
constexpr std::size_t kShownKeys = 8;
constexpr int kShownRanks = 8;
constexpr std::size_t kMaxMessage = 4096;

// "/run/steps" -> "run.steps".
std::string dotted(const std::string& pointer) {
    std::string out = pointer.substr(pointer.empty() ? 0 : 1);
    std::replace(out.begin(), out.end(), '/', '.');
    return out;
}

std::string differences(const nlohmann::json& mine, const nlohmann::json& zero) {
    const nlohmann::json a = mine.flatten();
    const nlohmann::json b = zero.flatten();
    std::vector<std::string> keys;
    for (const auto& [k, v] : a.items())
        if (!b.contains(k) || b[k] != v)
            keys.push_back(k);
    for (const auto& [k, v] : b.items())
        if (!a.contains(k))
            keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    std::string out;
    for (std::size_t i = 0; i < keys.size() && i < kShownKeys; ++i) {
        const std::string& k = keys[i];
        out += (i ? ", " : "") + dotted(k) + " (" +
               (a.contains(k) ? describeJson(a[k]) : std::string("absent")) +
               ", rank 0: " + (b.contains(k) ? describeJson(b[k]) : std::string("absent")) + ")";
    }
    if (keys.size() > kShownKeys)
        out += " and " + std::to_string(keys.size() - kShownKeys) + " more";
    return out;
}

} // namespace

nlohmann::json rankSettings(const TrainConfig& config, const TrainOptions& options) {
    return {{"config", toJson(config)},
            {"steps", options.steps ? nlohmann::json(*options.steps) : nlohmann::json(nullptr)},
            {"resume", options.resume_from}};
}

std::optional<std::string> configMismatch(Communicator& comm, const nlohmann::json& mine) {
    const int world = comm.size();
    const bool root = comm.rank() == 0;
    const std::string text = mine.dump();
    const std::uint64_t hash = fnv1a(text.data(), text.size());
    std::vector<std::uint64_t> hashes(root ? world : 0);
    comm.gatherBytes(&hash, sizeof hash, root ? hashes.data() : nullptr);
    std::int64_t differing = 0;
    if (root)
        for (int r = 1; r < world; ++r)
            differing += hashes[r] != hashes[0];
    comm.broadcastBytes(&differing, sizeof differing, 0);
    if (differing == 0)
        return std::nullopt;

    // Every rank's text, padded to the longest, on rank 0.
    std::int64_t length = static_cast<std::int64_t>(text.size());
    std::vector<std::int64_t> lengths(root ? world : 0);
    comm.gatherBytes(&length, sizeof length, root ? lengths.data() : nullptr);
    std::int64_t longest = root ? *std::max_element(lengths.begin(), lengths.end()) : 0;
    comm.broadcastBytes(&longest, sizeof longest, 0);
    std::string padded = text;
    padded.resize(static_cast<std::size_t>(longest), ' ');
    std::vector<char> all(root ? static_cast<std::size_t>(longest) * world : 0);
    comm.gatherBytes(padded.data(), padded.size(), root ? all.data() : nullptr);

    std::string message;
    if (root) {
        message = "the ranks resolved different configs (an MPMD launch, or files or "
                  "arguments that differ between ranks); every rank must run the same:";
        int shown = 0;
        for (int r = 1; r < world && shown < kShownRanks; ++r) {
            if (hashes[r] == hashes[0])
                continue;
            const nlohmann::json theirs = nlohmann::json::parse(
                all.begin() + static_cast<std::ptrdiff_t>(r * longest),
                all.begin() + static_cast<std::ptrdiff_t>(r * longest + lengths[r]));
            message += (shown++ ? "; rank " : " rank ") + std::to_string(r) +
                       " differs from rank 0 in " + differences(theirs, mine);
        }
        if (differing > shown)
            message += "; and " + std::to_string(differing - shown) + " more ranks";
        if (message.size() > kMaxMessage)
            message = message.substr(0, kMaxMessage - 3) + "...";
    }
    std::int64_t size = static_cast<std::int64_t>(message.size());
    comm.broadcastBytes(&size, sizeof size, 0);
    message.resize(static_cast<std::size_t>(size));
    comm.broadcastBytes(message.data(), message.size(), 0);
    return message;
}

} // namespace zerolab
