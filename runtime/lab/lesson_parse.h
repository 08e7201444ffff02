// A lesson file (JSON, "format": 1; docs/lab.md) parsed and validated into a Lesson.
// Every error names the source and the JSON path; every run's config is validated by
// the runtime's own config library (parseConfig) at the run's world.
#pragma once

#include "runtime/lab/lesson.h"

#include <string>

namespace zerolab {

// Parses `text` (a lesson document). `source` labels messages (a file path, or
// "lesson <id>"). require_both_languages: every Text must have en and zh_CN (the
// shipped lessons); otherwise en is required and zh_CN optional. Throws LessonError:
// "SOURCE: JSON.PATH: message" (line:column for a JSON syntax error). Checks are
// validated against the step (runs and predictions exist, quantity and unit known and
// of one dimension, formulas parse with known variables).
Lesson parseLesson(const std::string& text, const std::string& source,
                   bool require_both_languages = false);

// Reads and parses a file (a teacher's lesson). Throws LessonError naming the file.
Lesson loadLessonFile(const std::string& path);

// A shipped lesson by id, or a file path (anything containing '/' or ending in
// ".json" is a path). Throws LessonError ("unknown lesson ID; shipped: ...").
Lesson loadLesson(const std::string& id_or_path);

} // namespace zerolab
