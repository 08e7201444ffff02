# kernels_bench: per-op times of the CPU kernels at the micro model's shape and
# matmul GFLOP/s against the measured sgemm peak.
add_executable(kernels_bench ${CMAKE_CURRENT_SOURCE_DIR}/kernels_bench.cpp)
target_link_libraries(kernels_bench PRIVATE zerolab_kernels)
