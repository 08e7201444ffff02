// `zerolab --lesson ID|FILE --run-lesson [--db D] [--lang en|zh_CN] [--time-checks
// grade|report]`: runs every step's experiment and prints one JSON line per check on stdout
// and a summary line; no display, no QApplication. Exit 0 all agree, 1 a check disagrees
// or a run failed (stderr names it), 2 an invalid lesson or arguments (stderr names file
// and JSON path), 3 stopped, 77 every check that ran agrees but a step was skipped: it
// needs emulated hosts that cannot be made here (stderr says why).
#pragma once

#include "runtime/text/message.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

namespace zerolab {

struct HeadlessLessonOptions {
    std::string lesson;        // a shipped id or a file path
    std::string db_path;       // empty: the default store
    std::string lang = "en";   // labels in the JSON lines
    std::string train_program; // zerolab-train
    // false (--time-checks report): a time check outside its tolerance is printed but does
    // not fail the lesson (CI's lesson_<id> tests: no timed assertion); one that has no
    // forecast or no measurement still fails.
    bool grade_times = true;
    // Renders the progress lines on stderr in `lang` (null: English); the JSON lines'
    // labels come from the lesson's own texts.
    MessageTranslator translate;
};

// Prints {"lesson","step","check","kind","unit","label","prediction","formula","planner",
// "measured","claimed","agrees","reason"} per check (a time check adds "profile" and
// "graded"; a skipped step's checks are {"lesson","step","check","skipped": why}) and
// {"lesson","summary":{"checks","agree","disagree","skipped","times_reported"},"agrees"}
// last. Returns the exit code.
int runLessonHeadless(const HeadlessLessonOptions& options, std::ostream& out, std::ostream& err);

// The translator of a --lang code ("en", "zh_CN"); the GUI's catalogue, which this library
// cannot read without Qt.
using HeadlessTranslatorFor = std::function<MessageTranslator(const std::string& lang)>;

// For gui/app/main.cpp before any QApplication: nullopt when argv has no --run-lesson; else
// parses --lesson, --db, --lang (others are an error, exit 2), finds zerolab-train next
// to argv[0]'s executable and returns runLessonHeadless's exit code, its progress lines
// through translatorFor(lang) when given.
std::optional<int> runLessonFromArguments(int argc, char** argv,
                                          const HeadlessTranslatorFor& translatorFor = {});

} // namespace zerolab
