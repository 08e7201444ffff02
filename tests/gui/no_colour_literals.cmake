# Colours only from style: fails, naming file and line, when a colour literal (a hex
# "#rrggbb", QColor(r, g, b), a Qt::GlobalColor, a colour name in a style sheet) appears in
# gui/ outside the style files. Usage: cmake -DROOT=<repo> -P no_colour_literals.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "no_colour_literals: pass -DROOT=<repository root>")
endif()
# The only files that may write a colour's value.
set(allowed
    gui/core/palette.h
    gui/widgets/style.h gui/widgets/style.cpp
    gui/widgets/category_colors.h gui/widgets/category_colors.cpp
    gui/timeline/timeline_style.h gui/timeline/timeline_style.cpp)
set(hex "[0-9a-fA-F]")
set(names "white|black|red|green|blue|gray|grey|orange|yellow|purple|navy|silver|maroon")
set(patterns
    "(^|[^&])#${hex}${hex}${hex}(${hex}${hex}${hex}(${hex}${hex})?)?([^0-9a-zA-Z_]|$)"
    "QColor[ ]*[({][ ]*(0x|[0-9]|\")"
    "QColorConstants::|setNamedColor|QColor::from(Rgb|Hsv|Hsl|String)|qRgba?[ ]*\\("
    "Qt::(white|black|red|darkRed|green|darkGreen|blue|darkBlue|cyan|darkCyan|magenta|darkMagenta|yellow|darkYellow|gray|darkGray|lightGray|color0|color1)([^a-zA-Z]|$)"
    "(color|background|solid)[ ]*:?[ ]*(${names})([^a-zA-Z]|$)")
file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/gui/*.cpp ${ROOT}/gui/*.h)
list(SORT sources)
set(found 0)
foreach(source IN LISTS sources)
  if(source IN_LIST allowed)
    continue()
  endif()
  file(STRINGS ${ROOT}/${source} lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(STRIP "${line}" code)
    if(code MATCHES "^//")
      continue()
    endif()
    foreach(pattern IN LISTS patterns)
      if(code MATCHES "${pattern}")
        message("${source}:${number}: colour literal outside the style files: ${code}")
        math(EXPR found "${found} + 1")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
if(found GREATER 0)
  message(FATAL_ERROR "${found} colour literal(s) in gui/: name them in gui/core/palette.h "
                      "(or the style sheet in gui/widgets/style.cpp) and use the name")
endif()
list(LENGTH sources count)
message("no colour literal in gui/ outside the style files (${count} files read)")
