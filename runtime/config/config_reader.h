// Typed, path-aware access to one JSON object of a config. Instead of throwing, every
// problem becomes a ConfigDiagnostic, so that a parse reports all errors at once.
// Internal to the config library.
#pragma once

#include "runtime/config/config.h"
#include "runtime/config/json_text.h"
#include "runtime/text/name_table.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// Collects the diagnostics of one parse, in the order they were found (makeDiagnostic:
// paths and messages cut to a bounded size). Every text is a Message of context
// "ConfigCheck", so that the GUI can translate it.
class Diagnostics {
public:
    void error(std::string path, Message text);
    void warning(std::string path, Message text);
    bool hasErrors() const;
    std::vector<ConfigDiagnostic> take() { return std::move(m_items); }

private:
    std::vector<ConfigDiagnostic> m_items;
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c". A key longer than a message should quote
// is shortened (a path only ever labels a diagnostic).
std::string joinPath(const std::string& parent, std::string_view key);

// Reads the keys of one object (or of nothing, when the section is absent: every
// key is then absent). Getters return nullopt for an absent key and for a wrong
// value; the latter also records "PATH: expected EXPECTED, got VALUE". A value of
// "auto" given to a getter is an error naming the key: callers that can resolve
// "auto" check isAuto() first.
class SectionReader {
public:
    // obj may be null (section absent). obj must outlive the reader.
    SectionReader(const nlohmann::json* obj, std::string path, Diagnostics& diags);

    const std::string& path() const { return m_path; }
    std::string pathOf(std::string_view key) const { return joinPath(m_path, key); }
    bool has(std::string_view key) const;
    bool isAuto(std::string_view key) const;
    const nlohmann::json* raw(std::string_view key) const;

    // An integer (or an integral-valued number such as 5e8) in [lo, hi].
    std::optional<std::int64_t> getInt(std::string_view key, std::int64_t lo, std::int64_t hi);
    // A number accepted by `valid`; `expected` describes valid values ("a number > 0").
    std::optional<double> getNumber(std::string_view key, const std::function<bool(double)>& valid,
                                    const Message& expected);
    std::optional<bool> getBool(std::string_view key);
    std::optional<std::string> getString(std::string_view key);
    // One of `choices`; `case_insensitive` as DeepSpeed treats optimizer names.
    // Returns the index into choices.
    std::optional<std::size_t> getChoice(std::string_view key,
                                         const std::vector<std::string_view>& choices,
                                         bool case_insensitive = false);
    // getChoice over a name table's names: the value the string at key names.
    template <typename E, std::size_t N>
    std::optional<E> getNamed(std::string_view key, const NameTable<E, N>& table) {
        std::vector<std::string_view> names;
        for (const NamedValue<E>& e : table)
            names.push_back(e.name);
        if (const auto i = getChoice(key, names))
            return table[*i].value;
        return std::nullopt;
    }

    // Records PATH.key: expected ..., got ... (for checks a getter cannot express).
    void typeError(std::string_view key, Message expected);
    Diagnostics& diags() { return m_diags; }

private:
    bool rejectAuto(std::string_view key);

    const nlohmann::json* m_obj;
    std::string m_path;
    Diagnostics& m_diags;
};

// "expected EXPECTED, got VALUE" (the value as describeJson quotes it).
Message expectedGot(Message expected, const nlohmann::json& got);

// Describes [lo, hi] for messages: "an integer 0-3", "an integer 1-2147483647".
Message describeIntRange(std::int64_t lo, std::int64_t hi);

} // namespace zerolab
