// ZEROLAB_HOST_DEVICE marks the element arithmetic every Kernels implementation
// shares (kernels/*_math.h): plain inline functions for the CPU and, under nvcc,
// __host__ __device__ for the CUDA kernels too.
#pragma once

#if defined(__CUDACC__)
#define ZEROLAB_HOST_DEVICE __host__ __device__
#else
#define ZEROLAB_HOST_DEVICE
#endif
