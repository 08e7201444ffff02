// UTF-8 validation and repair of stored text (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF).
#include "storage/stored_text.h"

namespace zerolab {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// Length of the well-formed character at s[i], or 0 when none starts there.
std::size_t charLength(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
    const unsigned char c = b(0);
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2))
            return 0;
        if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) // overlong, surrogate
            return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3))
            return 0;
        if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) // overlong, > U+10FFFF
            return 0;
        return 4;
    }
    return 0;
}

// A control character starting at s[i] (valid UTF-8): C0, DEL or C1 (U+0080-U+009F).
bool isControl(std::string_view s, std::size_t i, std::size_t len) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (len == 1)
        return c < 0x20 || c == 0x7F;
    return len == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
}

} // namespace

std::optional<std::size_t> invalidUtf8At(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = charLength(s, i);
        if (n == 0)
            return i;
        i += n;
    }
    return std::nullopt;
}

std::optional<std::string> storedTextProblem(std::string_view s, TextKind kind,
                                             std::size_t max_bytes) {
    if (const auto at = invalidUtf8At(s))
        return "not valid UTF-8 (byte " + std::to_string(*at) + ")";
    if (s.size() > max_bytes)
        return std::to_string(s.size()) + " bytes, more than the " + std::to_string(max_bytes) +
               " allowed";
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = charLength(s, i);
        const bool allowed = kind == TextKind::MultiLine && (s[i] == '\n' || s[i] == '\t');
        if (isControl(s, i, n) && !allowed)
            return "holds a control character (byte " + std::to_string(i) + ")";
        i += n;
    }
    return std::nullopt;
}

std::string validUtf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = charLength(s, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

namespace {

// validUtf8(s) with its control characters shown as U+FFFD, newlines and tabs kept where
// keep_lines.
std::string withoutControls(std::string_view s, bool keep_lines) {
    const std::string valid = validUtf8(s);
    std::string out;
    out.reserve(valid.size());
    for (std::size_t i = 0; i < valid.size();) {
        const std::size_t n = charLength(valid, i);
        const bool kept = keep_lines && (valid[i] == '\n' || valid[i] == '\t');
        if (isControl(valid, i, n) && !kept)
            out += kReplacement;
        else
            out.append(valid, i, n);
        i += n;
    }
    return out;
}

} // namespace

std::string oneLineText(std::string_view s) {
    return withoutControls(s, false);
}

std::string terminalText(std::string_view s) {
    return withoutControls(s, true);
}

} // namespace zerolab
