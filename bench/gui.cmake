# bench/gui.cmake: review at scale: the run view over 1,000,000 steps x 8 ranks (open,
# zoom, replot), the runs panel and Compare over 1,000 runs. Needs the GUI and the
# fixture generator of tests/gui.
if(TARGET zerolab_gui AND TARGET zerolab_gui_fixture)
  add_executable(gui_bench ${CMAKE_CURRENT_LIST_DIR}/gui_bench.cpp)
  target_link_libraries(gui_bench PRIVATE zerolab_gui zerolab_gui_fixture)
endif()
# lab_text_bench: a lesson text at the 16 KiB cap laid out in the Lab (issue 29).
if(TARGET zerolab_gui)
  add_executable(lab_text_bench ${CMAKE_CURRENT_LIST_DIR}/lab_text_bench.cpp)
  target_link_libraries(lab_text_bench PRIVATE zerolab_gui)
  target_compile_definitions(lab_text_bench PRIVATE ZEROLAB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
endif()
