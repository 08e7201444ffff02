# The config library: part of zerolab_core (no MPI, no Qt; the GUI links it).
target_sources(zerolab_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_batch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_data_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_deepspeed.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_load.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_lr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_parse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_schema.cpp)
