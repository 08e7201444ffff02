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
include(${CMAKE_CURRENT_LIST_DIR}/gui_source_scan.cmake)
zerolab_scan_gui_sources(${ROOT} "${allowed}" "${patterns}"
                         "colour literal outside the style files")
if(FOUND GREATER 0)
  message(FATAL_ERROR "${FOUND} colour literal(s) in gui/: name them in gui/core/palette.h "
                      "(or the style sheet in gui/widgets/style.cpp) and use the name")
endif()
message("no colour literal in gui/ outside the style files (${COUNT} files read)")
