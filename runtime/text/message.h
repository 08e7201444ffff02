// A text the runtime libraries hand to a reader that may translate it: an English
// template with numbered placeholders %1..%9 and its arguments. An argument is a literal
// (a number, a JSON path, a value, a file name: never translated) or a nested message.
// The command-line tools print renderEnglish(); the GUI renders the same message
// through Qt's catalogue (gui/core/runtime_text.h). Templates are written with ZEROLAB_TR so
// that lupdate extracts them (scripts/update-translations, docs/i18n.md).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// A translatable template: lupdate reads ZEROLAB_TR("Context", "source %1") as
// QT_TRANSLATE_NOOP (both must be string literals).
struct MessageSource {
    const char* context;
    const char* source;
};

#define ZEROLAB_TR(context, source) (::zerolab::MessageSource{context, source})

struct Message {
    std::string context;       // the catalogue context; empty: `text` is a literal
    std::string text;          // the English template, or the literal itself
    std::vector<Message> args; // %1 is args[0]

    Message() = default;
    // A literal, shown as it is in every language. Implicit so that arguments read
    // naturally: Message(ZEROLAB_TR(...), {path, std::to_string(n)}).
    Message(std::string literal) : text(std::move(literal)) {}
    Message(MessageSource s, std::vector<Message> arguments = {})
        : context(s.context), text(s.source), args(std::move(arguments)) {}

    bool isLiteral() const { return context.empty(); }
    bool operator==(const Message&) const = default;
};

// Returns the template to use for (context, English source); the English source
// itself when there is no translation.
using MessageTranslator =
    std::function<std::string(const std::string& context, const std::string& source)>;

// The message with every %N replaced by its rendered argument, in one pass (an
// argument's own text is never scanned for placeholders). A %N without an argument and
// any other % stay as written. A null translator gives the English text.
std::string renderMessage(const Message& m, const MessageTranslator& translate);

inline std::string renderEnglish(const Message& m) {
    return renderMessage(m, nullptr);
}

// The message among `templates` whose English rendering is `text`, each placeholder
// taken as a literal argument (the longest match for the last one, the shortest for
// the others); nullopt when none fits. For texts stored in English (a sweep trial's
// reason): the reader can translate those it recognises and show the rest as stored.
std::optional<Message> matchMessage(std::string_view text,
                                    std::span<const MessageSource> templates);

} // namespace zerolab
