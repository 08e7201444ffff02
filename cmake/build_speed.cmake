# How the build stays short on a 2-core machine (issue 39 item 15; docs/building.md has
# the measurements): a fast linker, and precompiled headers for the targets whose
# translation units spend most of their time parsing the same large headers (Qt Widgets
# and QCustomPlot in the GUI, GoogleTest and nlohmann/json in the tests).
# Included from the top-level CMakeLists.txt, before any target.
include(CheckLinkerFlag)

# mold, else lld, else the default ld.bfd: about 50 test executables link the runtime's
# static libraries with their debug information. C and C++ links only: nvcc drives its
# own device link.
foreach(ld mold lld)
  check_linker_flag(CXX -fuse-ld=${ld} ZEROLAB_LINKER_${ld})
  if(ZEROLAB_LINKER_${ld})
    add_link_options($<$<LINK_LANGUAGE:C,CXX>:-fuse-ld=${ld}>)
    message(STATUS "zerolab: linking with ${ld}")
    break()
  endif()
endforeach()

option(ZEROLAB_PCH "Precompile the large common headers (GUI, tests)" ON)

# The headers nearly every C++ file of the project reads (config.h carries nlohmann/json).
set(ZEROLAB_PCH_STD <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional>
                    <sstream> <string> <vector> <nlohmann/json.hpp>)
# A Qt Widgets room or test: QCustomPlot reads all of Qt Widgets and Qt Print Support.
set(ZEROLAB_PCH_WIDGETS ${ZEROLAB_PCH_STD} <qcustomplot.h>)
# A room with no widgets (gui/core, gui/client): Qt Core and Gui only.
set(ZEROLAB_PCH_QTCORE ${ZEROLAB_PCH_STD} <QtCore/QObject> <QtCore/QString> <QtCore/QVector>
                       <QtCore/QHash> <QtCore/QVariant> <QtGui/QColor>)

# zerolab_pch(TARGET HEADERS <headers...>) precompiles the headers for TARGET alone;
# zerolab_pch(TARGET FROM <holder>) reuses <holder>'s. GCC uses a reused header only where
# the compile definitions and -fPIC/-fPIE agree with the holder's (else it silently parses
# the headers again), so holders are chosen per kind of target: see their callers.
function(zerolab_pch target)
  if(NOT ZEROLAB_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "" "FROM" "HEADERS" ${ARGN})
  if(ARG_FROM)
    target_precompile_headers(${target} REUSE_FROM ${ARG_FROM})
  else()
    target_precompile_headers(${target} PRIVATE ${ARG_HEADERS})
  endif()
  # A header that stops being used is a slow build, not a wrong one: say so in the log.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Winvalid-pch>)
endfunction()
