// `zerolab --lesson ID|FILE --run-lesson [--db D] [--lang en|zh_CN]`: runs every step's
// experiment and prints one JSON line per check on stdout and a summary line; no display,
// no QApplication. Exit 0 all agree, 1 a check disagrees or a run failed (stderr names
// it), 2 an invalid lesson or arguments (stderr names file and JSON path), 3 stopped.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace zerolab {

struct HeadlessLessonOptions {
    std::string lesson;        // a shipped id or a file path
    std::string db_path;       // empty: the default store
    std::string lang = "en";   // labels in the JSON lines
    std::string train_program; // zerolab-train
};

// Prints {"lesson","step","check","kind","unit","label","prediction","formula","planner",
// "measured","claimed","agrees","reason"} per check and {"lesson","summary":{"checks",
// "agree","disagree"},"agrees"} last. Returns the exit code.
int runLessonHeadless(const HeadlessLessonOptions& options, std::ostream& out, std::ostream& err);

// For gui/app/main.cpp before any QApplication: nullopt when argv has no --run-lesson; else
// parses --lesson, --db, --lang (others are an error, exit 2), finds zerolab-train next
// to argv[0]'s executable and returns runLessonHeadless's exit code.
std::optional<int> runLessonFromArguments(int argc, char** argv);

} // namespace zerolab
