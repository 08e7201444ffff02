// Bounded quoting of JSON values (describeJson, shortened) and the non-template half of
// parseJsonText: the JSON path of the parser's position and nlohmann's messages, cut
// to a bounded length.
#include "runtime/config/json_text.h"

#include "runtime/config/config_reader.h"

namespace zerolab {

namespace {

constexpr std::size_t kMaxShown = 60;

// Appends value's compact JSON text to out until out holds more than `limit` bytes.
// Every level appends a bracket before it recurses, so the recursion is at most
// `limit` deep whatever the value's depth; a long string is cut before it is escaped.
void appendBounded(const nlohmann::json& value, std::string& out, std::size_t limit) {
    if (out.size() > limit)
        return;
    const auto quoted = [&](std::string_view s) {
        out += nlohmann::json(shortened(s, limit))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    };
    if (value.is_string()) {
        quoted(value.get_ref<const std::string&>());
    } else if (value.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < value.size() && out.size() <= limit; ++i) {
            if (i > 0)
                out += ',';
            appendBounded(value[i], out, limit);
        }
        out += ']';
    } else if (value.is_object()) {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end() && out.size() <= limit; ++it) {
            if (!first)
                out += ',';
            first = false;
            quoted(it.key());
            out += ':';
            appendBounded(it.value(), out, limit);
        }
        out += '}';
    } else {
        out += value.dump(); // a number, true, false or null: a few bytes
    }
}

} // namespace

std::string shortened(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes)
        return std::string(text);
    std::size_t cut = max_bytes - 3;
    // Back up to the first byte of a UTF-8 character (continuation bytes are 10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "...";
}

std::string describeJson(const nlohmann::json& value) {
    std::string s;
    appendBounded(value, s, kMaxShown);
    return shortened(s, kMaxShown);
}

namespace json_text_detail {

namespace {

// nlohmann quotes the last token it read, which may be a megabyte of digits.
constexpr std::size_t kMaxReason = 200;

} // namespace

// Each open container's current key or index names the next step inward: the next
// container, or the value being read in the innermost one.
std::string PathTracker::path() const {
    std::string p;
    for (const Frame& f : m_frames)
        p = f.array ? p + "[" + std::to_string(f.index) + "]" : joinPath(p, f.key);
    return p;
}

std::string reasonOf(const std::string& what) {
    std::string s = what;
    const std::size_t bracket = s.find("] ");
    if (s.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
        s.erase(0, bracket + 2);
    // "parse error at line L, column C: " / "parse error: ": callers print their own position.
    if (s.rfind("parse error", 0) == 0) {
        const std::size_t colon = s.find(": ");
        if (colon != std::string::npos)
            s.erase(0, colon + 2);
    }
    return shortened(s, kMaxReason);
}

} // namespace json_text_detail
} // namespace zerolab
