# Embeds the store's .sql files into a C++ header at build time.
# cmake -DOUT=<header> -DINPUTS="name1=file1;name2=file2" -P embed_sql.cmake
# writes `inline constexpr std::string_view <name> = R"zlsql(<file>)zlsql";` per input.
set(text "// Generated from storage/*.sql by storage/embed_sql.cmake; do not edit.\n#pragma once\n\n#include <string_view>\n\nnamespace zerolab {\n")
foreach(pair IN LISTS INPUTS)
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 file)
  file(READ "${file}" sql)
  string(APPEND text "\ninline constexpr std::string_view ${name} = R\"zlsql(${sql})zlsql\";\n")
endforeach()
string(APPEND text "\n} // namespace zerolab\n")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
