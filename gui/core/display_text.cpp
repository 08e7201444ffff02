// shownText and shownNotes: storage's repair of stored text, then cuts that never split
// a character.
#include "gui/core/display_text.h"

#include "storage/stored_text.h"

namespace zerolab {

QString shownText(const std::string& stored, int max_chars) {
    // Only the head can be shown: repair no more than a generous prefix of the bytes.
    constexpr std::size_t kBytesPerChar = 4;
    const std::size_t head = static_cast<std::size_t>(max_chars + 1) * kBytesPerChar;
    QString s = QString::fromStdString(oneLineText(std::string_view(stored).substr(0, head)));
    if (s.size() <= max_chars && stored.size() <= head)
        return s;
    qsizetype cut = std::min<qsizetype>(s.size(), max_chars - 1);
    if (cut > 0 && s.at(cut - 1).isHighSurrogate())
        --cut;
    return s.left(cut) + QChar(0x2026);
}

QString shownNotes(const std::string& stored) {
    std::size_t cut = std::min(stored.size(), kMaxNotesBytes);
    while (cut > 0 && cut < stored.size() &&
           (static_cast<unsigned char>(stored[cut]) & 0xC0) == 0x80)
        --cut;
    return QString::fromStdString(validUtf8(std::string_view(stored).substr(0, cut)));
}

} // namespace zerolab
