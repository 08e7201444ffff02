# The planner part of runtime/: the analytic ZeRO memory/communication model in
# zerolab_core (no MPI, no Qt: the GUI links it) and the zerolab-plan executable.
target_sources(zerolab_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/planner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_buffers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_errata.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_explain.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_report.cpp)

add_executable(zerolab-plan ${CMAKE_CURRENT_LIST_DIR}/plan_main.cpp)
target_link_libraries(zerolab-plan PRIVATE zerolab_core CLI11::CLI11)
