// The GUI's one way to show a text the runtime libraries wrote as a Message (the
// config validator's findings, the planner's explanation and errata, a sweep trial's
// phase and reason): its template through Qt's catalogue, then its arguments.
#pragma once

#include "runtime/text/message.h"

#include <QString>

#include <vector>

namespace zerolab {

// The message in the current language: QCoreApplication::translate(context, template)
// for the message and each nested one, literal arguments (numbers, JSON paths, values)
// as they are. English when the catalogue has no translation.
QString runtimeText(const Message& message);

// Lines (such as the planner's explainLines) as one text, each runtimeText and a newline.
QString runtimeLines(const std::vector<Message>& lines);

} // namespace zerolab
