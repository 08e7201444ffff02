# The ZeRO engine, its communicators and the training loop's parts.
target_sources(zerolab_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/engine_buffers.cpp)
target_sources(zerolab_runtime PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/comm_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_mpi.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_staged.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_ranks.cpp)
target_sources(zerolab_runtime PRIVATE ${CMAKE_CURRENT_LIST_DIR}/zero_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/param_gather.cpp)
target_sources(zerolab_runtime PRIVATE ${CMAKE_CURRENT_LIST_DIR}/telemetry.cpp)
target_sources(zerolab_runtime PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/trainer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/checkpoint.cpp)
target_sources(zerolab_runtime PRIVATE ${CMAKE_CURRENT_LIST_DIR}/rank_watch.cpp)
