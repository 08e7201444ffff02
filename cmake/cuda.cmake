# Decides whether the CUDA/NCCL backend is built. AUTO builds it where nvcc and
# NCCL are both found (also on machines without a GPU: the code is compiled,
# GPU tests skip at run time); OFF never does; ON fails when either is missing.
set(ZEROLAB_HAVE_CUDA OFF)
if(NOT ZEROLAB_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  find_path(ZEROLAB_NCCL_INCLUDE nccl.h HINTS /usr/local/cuda/include /usr/include)
  find_library(ZEROLAB_NCCL_LIBRARY nccl HINTS /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu)
  if(CMAKE_CUDA_COMPILER AND ZEROLAB_NCCL_INCLUDE AND ZEROLAB_NCCL_LIBRARY)
    set(ZEROLAB_HAVE_CUDA ON)
  elseif(ZEROLAB_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ZEROLAB_WITH_CUDA=ON but nvcc (${CMAKE_CUDA_COMPILER}) or NCCL "
                        "(${ZEROLAB_NCCL_INCLUDE}, ${ZEROLAB_NCCL_LIBRARY}) was not found")
  endif()
endif()
if(ZEROLAB_HAVE_CUDA)
  message(STATUS "zerolab: CUDA backend found (nvcc ${CMAKE_CUDA_COMPILER}, NCCL ${ZEROLAB_NCCL_LIBRARY}); "
                 "the CUDA kernels arrive with the CUDA issue")
else()
  message(STATUS "zerolab: CPU-only build (no nvcc + NCCL found, or ZEROLAB_WITH_CUDA=OFF)")
endif()
