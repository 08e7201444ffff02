// The lessons shipped in resources/lessons/, embedded into the library at build time
// (runtime/lab/embed_lessons.cmake), so the app needs no files beside it.
#pragma once

#include "runtime/lab/lesson.h"

#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

struct ShippedLessonFile {
    std::string_view file; // "02-stage1.json"
    std::string_view text; // the JSON document
};

// Every embedded lesson file, in file-name order.
const std::vector<ShippedLessonFile>& shippedLessonFiles();

// One entry of the Lab's list.
struct LessonInfo {
    std::string id;
    int order = 0;
    LabText title;
    LabText summary;
};

// The shipped lessons by `order`. Parses them (with both languages required); throws
// LessonError if one is broken (a test makes sure none is).
std::vector<LessonInfo> shippedLessons();

// The shipped lesson `id`, parsed; throws LessonError naming the shipped ids if none.
Lesson shippedLesson(const std::string& id);

} // namespace zerolab
