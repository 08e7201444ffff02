// Text from the store (run names, tags, notes, hosts, event messages) as the GUI shows
// it: valid, on one line, and cut to a length that any cell, label, legend or tooltip
// lays out, whatever the store holds (storage/stored_text.h says what that may be).
#pragma once

#include <QString>

#include <string>

namespace zerolab {

inline constexpr int kShownNameChars = 40;     // a name or host in a cell, title or legend
inline constexpr int kShownTagsChars = 120;    // a run's tags, joined
inline constexpr int kShownMessageChars = 500; // an event message, notes in a tooltip

// stored as one line of at most max_chars characters, the last an ellipsis when cut.
QString shownText(const std::string& stored, int max_chars);

// A run's notes for the notes editor: valid, newlines kept, at most kMaxNotesBytes (what
// the entry points accept; longer notes are only stored by other tools, and are saved
// back cut to that length).
QString shownNotes(const std::string& stored);

} // namespace zerolab
