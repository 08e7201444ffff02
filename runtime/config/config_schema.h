// The keys each config section knows: those zerolab implements, DeepSpeed keys it
// accepts and ignores (with a warning), and the "did you mean" lookup for the rest.
// Internal to the config library.
#pragma once

#include "runtime/config/config_reader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace zerolab {

// implemented: keys this section reads. ignored: DeepSpeed keys accepted with a
// "not implemented, ignored" warning.
struct SectionSchema {
    std::span<const std::string_view> implemented;
    std::span<const std::string_view> ignored;
};

// How a key that is in neither list is treated.
enum class UnknownKeyPolicy {
    // zerolab's own sections (model, data, run): an error, with "did you mean".
    Error,
    // DeepSpeed sections: an error with "did you mean" when it is close to a key
    // zerolab implements (a typo would otherwise silently change training), else a
    // warning that it is ignored.
    WarnUnlessTypo,
};

// Checks every key of `obj` (an object at `path`) against `schema`.
void checkKeys(const nlohmann::json& obj, const std::string& path, const SectionSchema& schema,
               UnknownKeyPolicy policy, Diagnostics& diags);

// Levenshtein distance (insert, delete, substitute: cost 1 each), case-sensitive.
int editDistance(std::string_view a, std::string_view b);

// The name in `names` closest to `word`, if close enough to be a plausible typo:
// distance <= 1 for words under 4 characters, 2 under 12, else 3. Ties go to the
// earlier name.
std::optional<std::string_view> closestName(std::string_view word,
                                            std::span<const std::string_view> names);

// " (did you mean \"x\"?)", or an empty message when nothing is close.
Message didYouMean(std::string_view word, std::span<const std::string_view> names);

extern const SectionSchema kTopLevelSchema;
extern const SectionSchema kOptimizerSchema;
extern const SectionSchema kOptimizerParamsSchema;
extern const SectionSchema kSchedulerSchema;
extern const SectionSchema kBf16Schema;
extern const SectionSchema kFp16Schema;
extern const SectionSchema kDataTypesSchema;
extern const SectionSchema kZeroSchema;
extern const SectionSchema kModelSchema;
extern const SectionSchema kActivationCheckpointingSchema;
extern const SectionSchema kDataSchema;
extern const SectionSchema kRunSchema;

} // namespace zerolab
