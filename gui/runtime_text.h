// The GUI's one way to show a text the runtime libraries wrote as a Message (the
// config validator's findings, the planner's explanation and errata, a sweep trial's
// phase and reason): its template through Qt's catalogue, then its arguments.
#pragma once

#include "runtime/text/message.h"

#include <QString>

namespace zerolab {

// The message in the current language: QCoreApplication::translate(context, template)
// for the message and each nested one, literal arguments (numbers, JSON paths, values)
// as they are. English when the catalogue has no translation.
QString runtimeText(const Message& message);

} // namespace zerolab
