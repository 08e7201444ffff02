// libFuzzer target: a teacher's lesson file, read as `zerolab --lesson FILE` reads one
// (loadLessonFile: bounded file, bounded JSON, the format, every run's config through the
// config library, formulas), and the same bytes as a formula, parsed and evaluated with
// every variable a formula may use.
#include "runtime/lab/lab_expr.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lesson_parse.h"
#include "tests/fuzz/fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("lesson.json", data, size);
    try {
        zerolab::loadLessonFile(path);
    } catch (const zerolab::LessonError&) {
    }
    zerolab::ExprVariables vars;
    double v = 1;
    for (const std::string& name : zerolab::labVariableNames())
        vars[name] = v++;
    try {
        zerolab::Expr::parse(std::string(reinterpret_cast<const char*>(data), size)).evaluate(vars);
    } catch (const zerolab::ExprError&) {
    }
    return 0;
}
