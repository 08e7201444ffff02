// Checked CUDA and cuBLAS calls for kernels/cuda: every return code becomes a
// KernelError naming the call, the file:line and the library's error string.
#pragma once

#include "kernels/kernels.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace zerolab::cuda {

[[noreturn]] void throwCudaError(cudaError_t rc, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t rc, const char* call, const char* file, int line);

inline void check(cudaError_t rc, const char* call, const char* file, int line) {
    if (rc != cudaSuccess)
        throwCudaError(rc, call, file, line);
}

inline void check(cublasStatus_t rc, const char* call, const char* file, int line) {
    if (rc != CUBLAS_STATUS_SUCCESS)
        throwCublasError(rc, call, file, line);
}

} // namespace zerolab::cuda

// Wraps a cudaError_t or cublasStatus_t call.
#define ZEROLAB_CUDA_CHECK(call) ::zerolab::cuda::check((call), #call, __FILE__, __LINE__)
// After a <<<...>>> launch: reports a bad configuration (grid, shared memory) at the
// launch site; faults inside the kernel surface at the next checked call.
#define ZEROLAB_CUDA_CHECK_LAUNCH(name)                                                            \
    ::zerolab::cuda::check(cudaGetLastError(), name, __FILE__, __LINE__)
