# Decides whether the CUDA/NCCL backend is built. AUTO builds it where nvcc and
# NCCL are both found (also on machines without a GPU: the code is compiled,
# GPU tests skip at run time); OFF never does; ON fails when either is missing.
# Included from the top-level CMakeLists.txt: enable_language(CUDA) must run in
# the directory that holds every target that compiles or links CUDA code.
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
  # A100 (sm_80) and H100/H200 (sm_90): SASS for both, no PTX JIT at start-up. Override
  # with -DCMAKE_CUDA_ARCHITECTURES=89 (L40S, RTX 4090) to build only what a machine needs.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80;90")
  endif()
  enable_language(CUDA)
  # CMake 3.25 knows nvcc's dialects only up to C++17; nvcc >= 12 takes -std=c++20.
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  add_library(zerolab_nccl INTERFACE)
  target_include_directories(zerolab_nccl INTERFACE ${ZEROLAB_NCCL_INCLUDE})
  target_link_libraries(zerolab_nccl INTERFACE ${ZEROLAB_NCCL_LIBRARY})
  message(STATUS "zerolab: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
                 "sm ${CMAKE_CUDA_ARCHITECTURES}, NCCL ${ZEROLAB_NCCL_LIBRARY})")
else()
  message(STATUS "zerolab: CPU-only build (no nvcc + NCCL found, or ZEROLAB_WITH_CUDA=OFF)")
endif()
