# store_bench: RunWriter ingest and RunReader series read at 100,000 steps x 8 ranks.
add_executable(store_bench ${CMAKE_CURRENT_LIST_DIR}/store_bench.cpp)
target_link_libraries(store_bench PRIVATE zerolab_storage)
