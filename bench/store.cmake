# store_bench: RunWriter ingest and RunReader series read at 100,000 steps x 8 ranks.
add_executable(store_bench ${CMAKE_CURRENT_LIST_DIR}/store_bench.cpp)
target_link_libraries(store_bench PRIVATE zerolab_storage)

# timeline_store_bench: the writer thread's cost of storing one nano step timeline.
add_executable(timeline_store_bench ${CMAKE_CURRENT_LIST_DIR}/timeline_store_bench.cpp)
target_link_libraries(timeline_store_bench PRIVATE zerolab_storage)
