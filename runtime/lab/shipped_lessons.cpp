// The embedded lesson files (generated header) and the Lab's list of them.
#include "runtime/lab/shipped_lessons.h"

#include "lab_lessons_embedded.h"
#include "runtime/lab/lesson_parse.h"

#include <algorithm>

namespace zerolab {

const std::vector<ShippedLessonFile>& shippedLessonFiles() {
    static const std::vector<ShippedLessonFile> files = [] {
        std::vector<ShippedLessonFile> out;
        for (const auto& f : embedded::kLessonFiles)
            out.push_back({f.file, f.text});
        std::sort(out.begin(), out.end(),
                  [](const auto& a, const auto& b) { return a.file < b.file; });
        return out;
    }();
    return files;
}

namespace {

std::vector<Lesson> parseShipped() {
    std::vector<Lesson> out;
    for (const ShippedLessonFile& f : shippedLessonFiles()) {
        Lesson l =
            parseLesson(std::string(f.text), "resources/lessons/" + std::string(f.file), true);
        out.push_back(std::move(l));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Lesson& a, const Lesson& b) { return a.order < b.order; });
    return out;
}

} // namespace

std::vector<LessonInfo> shippedLessons() {
    std::vector<LessonInfo> out;
    for (const Lesson& l : parseShipped())
        out.push_back({l.id, l.order, l.title, l.summary});
    return out;
}

Lesson shippedLesson(const std::string& id) {
    std::string ids;
    for (const ShippedLessonFile& f : shippedLessonFiles()) {
        const auto doc = nlohmann::json::parse(f.text, nullptr, false);
        const std::string file_id = doc.is_object() && doc.contains("id") && doc["id"].is_string()
                                        ? doc["id"].get<std::string>()
                                        : std::string();
        if (file_id == id)
            return parseLesson(std::string(f.text), "resources/lessons/" + std::string(f.file),
                               true);
        ids += (ids.empty() ? "" : ", ") + file_id;
    }
    throw LessonError("unknown lesson '" + id + "' (shipped: " + ids +
                      "; a lesson file is given by a path ending in .json)");
}

} // namespace zerolab
