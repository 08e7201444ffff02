# Embeds resources/lessons/*.json into a C++ header at build time.
# cmake -DOUT=<header> -DINPUTS="file1;file2" -P embed_lessons.cmake
# writes one {"<file name>", R"zllesson(<text>)zllesson"} entry per input.
set(text "// Generated from resources/lessons/*.json by runtime/lab/embed_lessons.cmake; do not edit.\n#pragma once\n\n#include <array>\n#include <string_view>\n\nnamespace zerolab::embedded {\n\nstruct LessonFileText {\n    std::string_view file;\n    std::string_view text;\n};\n\n")
list(LENGTH INPUTS count)
string(APPEND text "inline constexpr std::array<LessonFileText, ${count}> kLessonFiles = {{\n")
foreach(file IN LISTS INPUTS)
  get_filename_component(name "${file}" NAME)
  file(READ "${file}" body)
  string(APPEND text "    {\"${name}\", R\"zllesson(${body})zllesson\"},\n")
endforeach()
string(APPEND text "}};\n\n} // namespace zerolab::embedded\n")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
