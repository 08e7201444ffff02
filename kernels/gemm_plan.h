// The cuBLAS argument plans of kernels/cuda: every GEMM and GEMV the CUDA kernels
// issue, as plain data (transposes, m/n/k, leading dimensions, strides, batch count,
// element offsets into the op's buffers). The .cu files call cuBLAS with exactly
// these numbers (kernels/cuda/gemm_exec.h); tests/kernels/gemm_plan_test.cpp runs the
// same plans through a column-major reference GEMM against the CPU kernels, and
// checks their bounds at real model sizes. Host-only: no CUDA header, so the plans
// are built and tested on machines without nvcc.
//
// cuBLAS' convention throughout: column-major, C = alpha op(A) op(B) + beta C with
// op(A) m x k, op(B) k x n, C m x n; a row-major (R,K) matrix is the column-major
// (K,R) matrix with leading dimension K.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab::gemm {

enum class Op { N, T };

// The op argument an operand points into. Each call names its operands by role so
// that the executor (CUDA) and the reference (the test) bind the same buffers.
enum class Buffer {
    Inp,
    Weight,
    Out,
    Dinp,
    Dweight,
    Dbias,
    Dout,
    Qkv,
    Preatt,
    Att,
    Dqkv,
    Dpreatt,
    Datt,
    XhatDout, // layernorm backward's scratch: xhat * dout, (N,C)
    Ones,     // a device vector of ones, the column sums' right-hand side
    Count
};

const char* bufferName(Buffer b);

// A matrix view: `offset` elements into `buffer`, leading dimension `ld` (for a GEMV
// vector: the increment), and `stride` elements between batch entries (0 unbatched).
struct Operand {
    Buffer buffer;
    std::int64_t offset = 0;
    int ld = 1;
    std::int64_t stride = 0;
};

// One cuBLAS GEMM: sgemm / GemmEx when batch == 1, the strided-batched variant otherwise.
struct GemmCall {
    const char* what = ""; // the product, e.g. "matmulForward out^T = weight inp^T"
    int row = 0;           // the batch row b of a per-b call (attention), else 0
    Op opA = Op::N, opB = Op::N;
    int m = 0, n = 0, k = 0;
    float alpha = 1.0f;
    Operand a, b;
    float beta = 0.0f;
    Operand c;
    int batch = 1;
};

// One cuBLAS GEMV: y = alpha op(A) x + beta y, A m x n column-major (ld in a.ld),
// increments in x.ld and y.ld.
struct GemvCall {
    const char* what = "";
    Op opA = Op::N;
    int m = 0, n = 0;
    float alpha = 1.0f;
    Operand a, x;
    float beta = 0.0f;
    Operand y;
};

// The stored (column-major) rows and columns of A, B and C for a call: A is m x k
// under Op::N and k x m under Op::T, B likewise with k x n, C is m x n.
struct Extent {
    int rows = 0, cols = 0;
};
Extent extentA(const GemmCall& c);
Extent extentB(const GemmCall& c);
Extent extentC(const GemmCall& c);

// One past the highest element a view touches: offset + (batch-1) stride +
// (cols-1) ld + rows, in 64 bits (0 for an empty view).
std::int64_t endElement(const Operand& o, Extent e, int batch);

// ---- Linear: out(N,OC) = inp(N,C) weight(OC,C)^T (+ bias, filled before the GEMM) ----
// beta 1 when the bias was written into out first, 0 otherwise.
GemmCall matmulForwardPlan(int N, int C, int OC, bool bias);
// dinp += dout weight (when withDinp), dweight += dout^T inp, in that order.
std::vector<GemmCall> matmulBackwardPlan(int N, int C, int OC, bool withDinp);
// dbias(OC) += column sums of dout(N,OC), a GEMV against Ones(N).
GemvCall matmulDbiasPlan(int N, int OC);

// ---- Attention (causal, scale 1/sqrt(hs)) over qkv(B,T,3C), preatt/att (B,NH,T,T) ----
struct AttentionShape {
    int B = 0, T = 0, C = 0, NH = 0;
};
// The products before and after the softmax kernel, one strided-batched call over the
// NH heads per batch row b (calls of one b are adjacent).
struct AttentionPlan {
    std::vector<GemmCall> beforeSoftmax, afterSoftmax;
};
// beforeSoftmax: preatt = scale q k^T; afterSoftmax: out = att v.
AttentionPlan attentionForwardPlan(const AttentionShape& s);
// beforeSoftmax: datt = dout v^T, dv += att^T dout; afterSoftmax: dq += scale dpreatt k,
// dk += scale dpreatt^T q.
AttentionPlan attentionBackwardPlan(const AttentionShape& s);

// ---- LayerNorm backward's column sums: dweight += sums of XhatDout, dbias of Dout ----
std::vector<GemvCall> layernormBackwardPlan(int N, int C);

// RMSNorm backward's dweight(C) += xhatDout^T ones(N) (no bias, so one column sum).
GemvCall rmsnormBackwardPlan(int N, int C);

// A cuBLAS int argument from a 64-bit count; throws KernelError naming `what`, `arg`
// and the value when it does not fit (cuBLAS' 32-bit API takes int dimensions).
int cublasInt(std::int64_t v, const char* what, const char* arg);

// "<what> (b=<row>)" for messages.
std::string describe(const GemmCall& c);

} // namespace zerolab::gemm
