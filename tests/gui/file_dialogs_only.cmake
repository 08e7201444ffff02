# File dialogs only through gui/widgets/file_dialog.h: fails, naming file and line, when
# gui/ opens a QFileDialog (or a native one) itself. A native dialog or Qt's default icon
# provider reads the files a folder holds, and closing such a descriptor of the open run
# store drops the GUI's SQLite locks (issue 27 item 1, file_dialog.h).
# Usage: cmake -DROOT=<repo> -P file_dialogs_only.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "file_dialogs_only: pass -DROOT=<repository root>")
endif()
set(allowed gui/widgets/file_dialog.h gui/widgets/file_dialog.cpp)
include(${CMAKE_CURRENT_LIST_DIR}/gui_source_scan.cmake)
zerolab_scan_gui_sources(${ROOT} "${allowed}" "QFileDialog|QFileIconProvider|QFileSystemModel"
                         "a file dialog outside gui/widgets/file_dialog.h")
if(FOUND GREATER 0)
  message(FATAL_ERROR "${FOUND} file dialog(s) in gui/ outside gui/widgets/file_dialog.h: "
                      "call openFileName, saveFileName or existingDirectory from there")
endif()
message("every file dialog in gui/ goes through gui/widgets/file_dialog.h (${COUNT} files read)")
