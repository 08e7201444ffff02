# The CUDA backend's runtime parts. Always: the device peak table (plain C++, used
# for MFU). With ZEROLAB_HAVE_CUDA: the NCCL communicator (a library of its own, so
# that nothing else links CUDA until it asks), zerolab-train's CUDA backend module and
# zerolab-gpu-info. The CUDA kernels
# are kernels/cuda (added by kernels/CMakeLists.txt).
target_sources(zerolab_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/device_info.cpp)
if(ZEROLAB_HAVE_CUDA)
  add_library(zerolab_comm_nccl STATIC ${CMAKE_CURRENT_LIST_DIR}/comm_nccl.cpp)
  target_link_libraries(zerolab_comm_nccl PUBLIC zerolab_runtime zerolab_kernels_cuda zerolab_nccl)
  # zerolab-train's CUDA backend, loaded on demand (train_backend.cpp) so that a CPU run
  # never maps CUDA's libraries. Built with zerolab-train, beside it in bin/.
  add_library(zerolab_cuda_backend MODULE ${CMAKE_CURRENT_LIST_DIR}/train_backend_cuda.cpp)
  target_link_libraries(zerolab_cuda_backend PRIVATE zerolab_comm_nccl)
  set_target_properties(zerolab_cuda_backend PROPERTIES PREFIX "lib")
  add_dependencies(zerolab-train zerolab_cuda_backend)
  # Device names and table peaks for scripts/gpu-check.
  add_executable(zerolab-gpu-info ${CMAKE_CURRENT_LIST_DIR}/gpu_info_main.cpp)
  target_link_libraries(zerolab-gpu-info PRIVATE zerolab_core CUDA::cudart)
endif()
