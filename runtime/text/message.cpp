// renderMessage and matchMessage (message.h).
#include "runtime/text/message.h"

#include <algorithm>

namespace zerolab {

namespace {

// The placeholder number (1-9) at text[i] == '%', or 0.
int placeholderAt(std::string_view text, std::size_t i) {
    if (text[i] != '%' || i + 1 >= text.size())
        return 0;
    const char c = text[i + 1];
    return c >= '1' && c <= '9' ? c - '0' : 0;
}

// A template cut into literal pieces and placeholders: pieces[k] precedes slots[k].
struct Pattern {
    std::vector<std::string_view> pieces; // slots.size() + 1 pieces
    std::vector<int> slots;               // placeholder numbers, in order of appearance
};

Pattern cut(std::string_view source) {
    Pattern p;
    std::size_t start = 0;
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (const int n = placeholderAt(source, i)) {
            p.pieces.push_back(source.substr(start, i - start));
            p.slots.push_back(n);
            start = i + 2;
            ++i;
        }
    }
    p.pieces.push_back(source.substr(start));
    return p;
}

// Matches text[pos..] against the pattern from slot k on (piece k already matched),
// filling values[k..].
bool matchFrom(const Pattern& p, std::string_view text, std::size_t pos, std::size_t k,
               std::vector<std::string_view>& values) {
    if (k == p.slots.size())
        return pos == text.size();
    const std::string_view next = p.pieces[k + 1];
    if (k + 1 == p.slots.size()) {
        // The last placeholder takes everything up to the final piece.
        if (text.size() < pos + next.size() || !text.substr(pos).ends_with(next))
            return false;
        values[k] = text.substr(pos, text.size() - next.size() - pos);
        return true;
    }
    for (std::size_t end = text.find(next, pos); end != std::string_view::npos;
         end = text.find(next, end + 1)) {
        values[k] = text.substr(pos, end - pos);
        if (matchFrom(p, text, end + next.size(), k + 1, values))
            return true;
    }
    return false;
}

} // namespace

std::string renderMessage(const Message& m, const MessageTranslator& translate) {
    if (m.isLiteral())
        return m.text;
    const std::string source = translate ? translate(m.context, m.text) : m.text;
    std::string out;
    out.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
        const int n = placeholderAt(source, i);
        if (n > 0 && static_cast<std::size_t>(n) <= m.args.size()) {
            out += renderMessage(m.args[static_cast<std::size_t>(n - 1)], translate);
            ++i;
        } else {
            out += source[i];
        }
    }
    return out;
}

std::optional<Message> matchMessage(std::string_view text,
                                    std::span<const MessageSource> templates) {
    for (const MessageSource& t : templates) {
        const Pattern p = cut(t.source);
        if (!text.starts_with(p.pieces.front()))
            continue;
        std::vector<std::string_view> values(p.slots.size());
        if (p.slots.empty() ? text != p.pieces.front()
                            : !matchFrom(p, text, p.pieces.front().size(), 0, values))
            continue;
        int highest = 0;
        for (int n : p.slots)
            highest = std::max(highest, n);
        Message m(t);
        m.args.resize(static_cast<std::size_t>(highest));
        for (std::size_t k = 0; k < p.slots.size(); ++k)
            m.args[static_cast<std::size_t>(p.slots[k] - 1)] = Message(std::string(values[k]));
        return m;
    }
    return std::nullopt;
}

} // namespace zerolab
