// The non-template half of parseJsonText: the JSON path of the parser's position and
// nlohmann's messages, cut to a bounded length.
#include "runtime/config/json_text.h"

#include "runtime/config/config_reader.h"

namespace zerolab::json_text_detail {

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

} // namespace zerolab::json_text_detail
