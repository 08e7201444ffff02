// Helpers for the config tests: parse a JSON literal, find a diagnostic by path and
// message fragment, and print all diagnostics when an expectation fails.
#pragma once

#include "runtime/config/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

namespace zerolab::test {

inline ConfigResult parse(const std::string& json_text, std::optional<int> world = std::nullopt) {
    return parseConfig(nlohmann::json::parse(json_text), world, "test.json");
}

// A config with a micro-batch of 2 and `rest`'s members.
inline std::string withBatch(const std::string& rest) {
    return std::string("{\"train_micro_batch_size_per_gpu\": 2") +
           (rest.empty() ? "" : ", " + rest) + "}";
}

inline std::string dump(const ConfigResult& r) {
    std::string s;
    for (const ConfigDiagnostic& d : r.diagnostics)
        s += formatDiagnostic("test.json", d) + "\n";
    return s;
}

inline int countSeverity(const ConfigResult& r, Severity severity) {
    return static_cast<int>(
        std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                      [&](const ConfigDiagnostic& d) { return d.severity == severity; }));
}

// The diagnostic at `path` whose message contains `fragment`, if any.
inline const ConfigDiagnostic* find(const ConfigResult& r, Severity severity,
                                    const std::string& path, const std::string& fragment = "") {
    for (const ConfigDiagnostic& d : r.diagnostics)
        if (d.severity == severity && d.path == path &&
            d.message.find(fragment) != std::string::npos)
            return &d;
    return nullptr;
}

inline const ConfigDiagnostic* findError(const ConfigResult& r, const std::string& path,
                                         const std::string& fragment = "") {
    return find(r, Severity::Error, path, fragment);
}

inline const ConfigDiagnostic* findWarning(const ConfigResult& r, const std::string& path,
                                           const std::string& fragment = "") {
    return find(r, Severity::Warning, path, fragment);
}

} // namespace zerolab::test
