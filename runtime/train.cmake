# zerolab-train: one process per rank (mpirun -np N zerolab-train ...). Its backend
# choice (train_backend.cpp) is the one place that links the CUDA kernels and NCCL.
add_executable(zerolab-train ${CMAKE_CURRENT_LIST_DIR}/train_main.cpp
                             ${CMAKE_CURRENT_LIST_DIR}/train_backend.cpp)
target_link_libraries(zerolab-train PRIVATE zerolab_runtime CLI11::CLI11)
if(ZEROLAB_HAVE_CUDA)
  target_compile_definitions(zerolab-train PRIVATE ZEROLAB_HAVE_CUDA=1)
  target_link_libraries(zerolab-train PRIVATE zerolab_comm_nccl)
else()
  target_compile_definitions(zerolab-train PRIVATE ZEROLAB_HAVE_CUDA=0)
endif()
