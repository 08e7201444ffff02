// Text that people put in the store: run names, tags, notes. The entry points that
// write it (zerolab-train --run-name, zerolab-runs tag and note) refuse what
// storedTextProblem names; every view and export repairs what is stored, which may be
// anything (an older zerolab, another tool, a hand edit), with validUtf8 / oneLineText /
// terminalText.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace zerolab {

inline constexpr std::size_t kMaxRunNameBytes = 256;
inline constexpr std::size_t kMaxTagBytes = 128;
inline constexpr std::size_t kMaxNotesBytes = 64 * 1024;

enum class TextKind {
    OneLine,   // a run name, a tag: no control characters
    MultiLine, // notes: newlines and tabs allowed
};

// Byte offset of the first byte that does not start a well-formed UTF-8 character
// (truncated, overlong, a surrogate, past U+10FFFF), or nullopt when s is valid.
std::optional<std::size_t> invalidUtf8At(std::string_view s);

// Why s may not be stored (invalid UTF-8 and where, a control character in one-line
// text, longer than max_bytes), or nullopt. Callers prefix the argument's name.
std::optional<std::string> storedTextProblem(std::string_view s, TextKind kind,
                                             std::size_t max_bytes);

// s with each byte that starts no well-formed character replaced by U+FFFD.
std::string validUtf8(std::string_view s);

// validUtf8(s) for one line of a table or a label: every control character (C0, DEL,
// C1: newlines, tabs, terminal escapes) is shown as U+FFFD.
std::string oneLineText(std::string_view s);

// validUtf8(s) for a terminal: every control character but newline and tab (terminal
// escapes, carriage returns, backspaces) is shown as U+FFFD. What a command-line tool
// prints that may hold text from a file or the store goes through it.
std::string terminalText(std::string_view s);

} // namespace zerolab
