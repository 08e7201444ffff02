// runtimeText: renderMessage (runtime/text/message.h) with Qt's catalogue as translator.
#include "gui/core/runtime_text.h"

#include <QCoreApplication>

namespace zerolab {

QString runtimeText(const Message& message) {
    const std::string text =
        renderMessage(message, [](const std::string& context, const std::string& source) {
            return QCoreApplication::translate(context.c_str(), source.c_str()).toStdString();
        });
    return QString::fromStdString(text);
}

QString runtimeLines(const std::vector<Message>& lines) {
    QString out;
    for (const Message& line : lines)
        out += runtimeText(line) + QLatin1Char('\n');
    return out;
}

} // namespace zerolab
