// Runs the cuBLAS argument plans of kernels/gemm_plan.h: each call goes to cuBLAS with
// exactly the plan's transposes, m/n/k, leading dimensions, strides, batch count and
// offsets, on the operand buffers bound by role. The plans are tested on the CPU
// (tests/kernels/gemm_plan_test.cpp); this file is the only place that turns them into
// cuBLAS calls.
#pragma once

#include "kernels/bf16.h"
#include "kernels/gemm_plan.h"

#include <cublas_v2.h>

#include <array>
#include <cstddef>

namespace zerolab::cuda {

// The device pointers of one op, by role: `in` for A, B (and a GEMV's x), `out` for C
// (a GEMV's y). E is the element type of the inputs: float, or Bf16 copies under
// MatmulMath::Bf16 (same layout, so the plan's offsets hold for both).
template <typename E> struct GemmBuffers {
    std::array<const E*, static_cast<std::size_t>(gemm::Buffer::Count)> in{};
    std::array<float*, static_cast<std::size_t>(gemm::Buffer::Count)> out{};

    GemmBuffers& input(gemm::Buffer b, const E* p) {
        in[static_cast<std::size_t>(b)] = p;
        return *this;
    }
    GemmBuffers& output(gemm::Buffer b, float* p) {
        out[static_cast<std::size_t>(b)] = p;
        return *this;
    }
};

// One plan entry on `h` (and its stream). sgemm / cublasSgemmStridedBatched for fp32
// inputs, cublasGemmEx / cublasGemmStridedBatchedEx with fp32 compute and output for bf16
// ones; batch == 1 takes the unbatched call. An operand whose role has no pointer bound
// throws KernelError naming the call and the role.
void runGemm(cublasHandle_t h, const gemm::GemmCall& c, const GemmBuffers<float>& bufs);
void runGemm(cublasHandle_t h, const gemm::GemmCall& c, const GemmBuffers<Bf16>& bufs);
void runGemv(cublasHandle_t h, const gemm::GemvCall& c, const GemmBuffers<float>& bufs);

} // namespace zerolab::cuda
