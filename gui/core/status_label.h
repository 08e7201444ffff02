// Display names of the stored status words (run, sweep and trial status, event level):
// the store and the CLIs keep the English word; the GUI shows it translated.
#pragma once

#include <QString>

#include <string_view>

namespace zerolab {

// The word as shown in the current language: `name` is a stored name such as
// runStatusName(...) or trialStatusName(...); an unknown word is shown as stored.
QString statusLabel(std::string_view name);

} // namespace zerolab
