# kernels_bench: per-op times of the CPU kernels at the micro model's shape and
# matmul GFLOP/s against the measured sgemm peak.
add_executable(kernels_bench ${CMAKE_CURRENT_SOURCE_DIR}/kernels_bench.cpp)
target_link_libraries(kernels_bench PRIVATE zerolab_kernels)
# attention_bench: today's attention against the flash attention at the mini preset's
# shape for T = 256, 1024, 2048 (docs/kernels.md, "Flash attention").
add_executable(attention_bench ${CMAKE_CURRENT_SOURCE_DIR}/attention_bench.cpp)
target_link_libraries(attention_bench PRIVATE zerolab_kernels)
