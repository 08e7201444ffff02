// SectionReader and Diagnostics: typed reads of config values with JSON paths and
// messages of the form "PATH: expected an integer 0-3, got \"two\"".
#include "runtime/config/config_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace zerolab {

namespace {

// A key in a path is cut like a value quoted by describeJson (60 bytes); the caps on
// paths and messages hold for what a message quotes whole, such as a file path.
constexpr std::size_t kMaxKeyShown = 60;
constexpr std::size_t kMaxPathBytes = 1024;
constexpr std::size_t kMaxMessageBytes = 8192;

} // namespace

ConfigDiagnostic makeDiagnostic(Severity severity, std::string path, Message text) {
    std::string message = shortened(renderEnglish(text), kMaxMessageBytes);
    return {severity, shortened(path, kMaxPathBytes), std::move(message), std::move(text)};
}

void Diagnostics::error(std::string path, Message text) {
    m_items.push_back(makeDiagnostic(Severity::Error, std::move(path), std::move(text)));
}

void Diagnostics::warning(std::string path, Message text) {
    m_items.push_back(makeDiagnostic(Severity::Warning, std::move(path), std::move(text)));
}

bool Diagnostics::hasErrors() const {
    return std::any_of(m_items.begin(), m_items.end(),
                       [](const ConfigDiagnostic& d) { return d.severity == Severity::Error; });
}

std::string joinPath(const std::string& parent, std::string_view key) {
    const std::string shown = shortened(key, kMaxKeyShown);
    if (parent.empty())
        return shown;
    return parent + "." + shown;
}

Message describeIntRange(std::int64_t lo, std::int64_t hi) {
    // The whole range, the upper limit too: "expected an integer >= 1, got
    // 9223372036854775807" did not say why a number above 1 was refused.
    return Message(ZEROLAB_TR("ConfigCheck", "an integer %1-%2"),
                   {std::to_string(lo), std::to_string(hi)});
}

SectionReader::SectionReader(const nlohmann::json* obj, std::string path, Diagnostics& diags)
    : m_obj(obj), m_path(std::move(path)), m_diags(diags) {}

const nlohmann::json* SectionReader::raw(std::string_view key) const {
    if (m_obj == nullptr || !m_obj->is_object())
        return nullptr;
    auto it = m_obj->find(key);
    return it == m_obj->end() ? nullptr : &*it;
}

bool SectionReader::has(std::string_view key) const {
    return raw(key) != nullptr;
}

bool SectionReader::isAuto(std::string_view key) const {
    const nlohmann::json* v = raw(key);
    return v != nullptr && v->is_string() && v->get<std::string>() == "auto";
}

Message expectedGot(Message expected, const nlohmann::json& got) {
    return Message(ZEROLAB_TR("ConfigCheck", "expected %1, got %2"),
                   {std::move(expected), describeJson(got)});
}

void SectionReader::typeError(std::string_view key, Message expected) {
    const nlohmann::json* v = raw(key);
    if (v == nullptr) {
        m_diags.error(pathOf(key), Message(ZEROLAB_TR("ConfigCheck", "expected %1, got nothing"),
                                           {std::move(expected)}));
        return;
    }
    m_diags.error(pathOf(key), expectedGot(std::move(expected), *v));
}

bool SectionReader::rejectAuto(std::string_view key) {
    if (!isAuto(key))
        return false;
    m_diags.error(
        pathOf(key),
        Message(ZEROLAB_TR("ConfigCheck", "\"auto\" cannot be resolved here: nothing else in the "
                                          "config decides this key; give a value")));
    return true;
}

std::optional<std::int64_t> SectionReader::getInt(std::string_view key, std::int64_t lo,
                                                  std::int64_t hi) {
    const nlohmann::json* v = raw(key);
    if (v == nullptr || rejectAuto(key))
        return std::nullopt;
    std::optional<std::int64_t> n;
    if (v->is_number_integer()) {
        if (v->is_number_unsigned() &&
            v->get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            n = std::nullopt;
        else
            n = v->get<std::int64_t>();
    } else if (v->is_number_float()) {
        // DeepSpeed configs write bucket sizes as 5e8: accept integral floats.
        double d = v->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18)
            n = static_cast<std::int64_t>(d);
    }
    if (!n || *n < lo || *n > hi) {
        typeError(key, describeIntRange(lo, hi));
        return std::nullopt;
    }
    return n;
}

std::optional<double> SectionReader::getNumber(std::string_view key,
                                               const std::function<bool(double)>& valid,
                                               const Message& expected) {
    const nlohmann::json* v = raw(key);
    if (v == nullptr || rejectAuto(key))
        return std::nullopt;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || !valid(v->get<double>())) {
        typeError(key, expected);
        return std::nullopt;
    }
    return v->get<double>();
}

std::optional<bool> SectionReader::getBool(std::string_view key) {
    const nlohmann::json* v = raw(key);
    if (v == nullptr || rejectAuto(key))
        return std::nullopt;
    if (!v->is_boolean()) {
        typeError(key, Message(ZEROLAB_TR("ConfigCheck", "true or false")));
        return std::nullopt;
    }
    return v->get<bool>();
}

std::optional<std::string> SectionReader::getString(std::string_view key) {
    const nlohmann::json* v = raw(key);
    if (v == nullptr || rejectAuto(key))
        return std::nullopt;
    if (!v->is_string()) {
        typeError(key, Message(ZEROLAB_TR("ConfigCheck", "a string")));
        return std::nullopt;
    }
    // A path would be cut at a NUL by every system call that takes it.
    if (v->get_ref<const std::string&>().find('\0') != std::string::npos) {
        typeError(key, Message(ZEROLAB_TR("ConfigCheck", "a string without NUL characters")));
        return std::nullopt;
    }
    return v->get<std::string>();
}

namespace {

// "\"a\", \"b\"": config values, never translated.
std::string quotedList(const std::vector<std::string_view>& choices) {
    std::string out;
    for (std::size_t i = 0; i < choices.size(); ++i)
        out += (i ? ", \"" : "\"") + std::string(choices[i]) + "\"";
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

std::optional<std::size_t> SectionReader::getChoice(std::string_view key,
                                                    const std::vector<std::string_view>& choices,
                                                    bool case_insensitive) {
    std::optional<std::string> s = getString(key);
    if (!s)
        return std::nullopt;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        bool same = case_insensitive ? lower(*s) == lower(choices[i]) : *s == choices[i];
        if (same)
            return i;
    }
    typeError(key, Message(ZEROLAB_TR("ConfigCheck", "one of %1"), {quotedList(choices)}));
    return std::nullopt;
}

} // namespace zerolab
