// The CUDA implementation of Kernels: cuBLAS sgemm for every matrix product
// (Linear layers, attention), hand-written kernels for the rest, all on one
// stream per object. Declared here so that the NCCL communicator and the engine
// can order their own streams after this one (stream()).
#pragma once

#include "kernels/kernels.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

namespace zerolab {

// How the matrix products (Linear layers and attention's) compute. Fp32: cuBLAS sgemm
// in true fp32 (no TF32), matching the CPU kernels to fp32 rounding. Bf16: both
// operands rounded to bf16 (nearest even) into scratch on the device, the product on
// the tensor cores with fp32 accumulation into the fp32 output -- what PyTorch's bf16
// autocast does. Softmax, layernorm and every other op stay fp32 either way.
enum class MatmulMath { Fp32, Bf16 };

// Every op is enqueued on stream() and returns without waiting, except those whose
// result the host needs: sumSquares (returns a value), copyToDevice/copyToHost (the
// host buffer is free or filled on return) and the cross-entropy ops (they check the
// targets, see below). Math: fp32 everywhere, cuBLAS in CUBLAS_DEFAULT_MATH (no TF32),
// so results match the CPU kernels to fp32 rounding. encoderBackward's dwte
// accumulates with atomics: the order, hence the last bits, vary from run to run.
// Threading: one host thread, on which the constructor made `device` current.
class CudaKernels final : public Kernels {
public:
    explicit CudaKernels(int device, MatmulMath math = MatmulMath::Fp32);
    ~CudaKernels() override;
    CudaKernels(const CudaKernels&) = delete;
    CudaKernels& operator=(const CudaKernels&) = delete;

    std::string_view name() const override { return "cuda"; }
    int threads() const override { return 1; }
    int device() const { return m_device; }
    MatmulMath matmulMath() const { return m_math; }
    // cudaDeviceProp::name of device(), e.g. "NVIDIA H200" (the key of the peak table).
    std::string deviceName() const;
    cudaStream_t stream() const { return m_stream; }

    void* allocate(std::size_t bytes) override;
    void release(void* p) override;
    void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) override;
    void copyToHost(void* hostDst, const void* src, std::size_t bytes) override;
    void copyOnDevice(void* dst, const void* src, std::size_t bytes) override;
    void fillZero(void* p, std::size_t bytes) override;
    // cudaMemGetInfo on device(): what every process on the device uses.
    std::optional<DeviceMemory> deviceMemory() override;
    void synchronize() override;

    void encoderForward(float* out, const int* inp, const float* wte, const float* wpe, int B,
                        int T, int C) override;
    void encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T,
                         int C) override;

    void layernormForward(float* out, float* mean, float* rstd, const float* inp,
                          const float* weight, const float* bias, int N, int C) override;
    void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                           const float* inp, const float* weight, const float* mean,
                           const float* rstd, int N, int C) override;

    void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int N,
                       int C, int OC) override;
    void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                        const float* inp, const float* weight, int N, int C, int OC) override;

    void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T,
                          int C, int NH) override;
    void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                           const float* qkv, const float* att, int B, int T, int C,
                           int NH) override;

    void flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                               const float* v, const FlashAttentionDims& d) override;
    void flashAttentionBackward(float* dq, float* dk, float* dv, float* delta, const float* dout,
                                const float* out, const float* lse, const float* q, const float* k,
                                const float* v, const FlashAttentionDims& d) override;

    void geluForward(float* out, const float* inp, std::size_t n) override;
    void geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) override;

    void residualForward(float* out, const float* a, const float* b, std::size_t n) override;
    void residualBackward(float* da, float* db, const float* dout, std::size_t n) override;

    // Both check every target on the device and copy one flag back (a stream
    // synchronisation): an out-of-range target throws KernelError naming its position.
    void softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                    const int* targets, int B, int T, int V, int Vp) override;
    void crossEntropySoftmaxBackward(float* dlogits, const float* dlosses, const float* probs,
                                     const int* targets, int B, int T, int V, int Vp) override;

    void rmsnormForward(float* out, float* rstd, const float* inp, const float* weight, int N,
                        int C, float eps) override;
    void rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                         const float* weight, const float* rstd, int N, int C) override;
    void ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                     int rowStride) override;
    void ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                      int rowStride) override;
    void swigluForward(float* out, const float* gate, const float* up, std::size_t n) override;
    void swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                        const float* up, std::size_t n) override;

    void adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
               const AdamParams& hp) override;
    void adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                    std::size_t n, const AdamParams& hp) override;
    void adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                    std::size_t n, const AdamParams& hp) override;

    void toBf16(Bf16* out, const float* in, std::size_t n) override;
    void toFloat(float* out, const Bf16* in, std::size_t n) override;
    void accumulate(Bf16* dst, const Bf16* src, std::size_t n) override;
    void accumulate(Bf16* dst, const float* src, std::size_t n) override;
    // A first 1024-element chunk in one block (all reads, a barrier, all writes), then
    // doubling ranges [m, 2m), each one launch whose writes land on floats read before.
    void narrowToBf16InPlace(float* buf, std::size_t n) override;
    void axpy(float* y, float alpha, const float* x, std::size_t n) override;
    void scale(float* x, float s, std::size_t n) override;
    void zero(float* x, std::size_t n) override;
    void zero(Bf16* x, std::size_t n) override;
    double sumSquares(const float* x, std::size_t n) override;
    double sumSquares(const Bf16* x, std::size_t n) override;

private:
    // Device scratch that grows on demand and is kept for the object's lifetime
    // (growth synchronises the stream first: a running kernel may still read it).
    float* scratchFloats(std::size_t n);
    // bf16 device scratch for matmul operands, one growing buffer per slot (0-2).
    Bf16* bf16Scratch(int slot, std::size_t n);
    // The operand `x` (n floats) rounded into bf16 scratch `slot`.
    const Bf16* asBf16(int slot, const float* x, std::size_t n);
    // A device vector of n ones (column sums as cuBLAS gemv), filled on stream() so that
    // the ops after it on that stream see it filled.
    const float* ones(std::size_t n);
    // x[0, n) = value, a kernel on stream().
    void fill(float* x, float value, std::size_t n);
    // Checks every target on the device and copies one flag back (a stream sync); throws
    // KernelError naming the first target outside [0, V) and its position.
    void checkTargets(const char* op, const int* targets, std::size_t rows, int V);
    // Sums the kReduceBlocks partials of a sumSquares pass and returns the total.
    double finishSumSquares();

    // sumSquares reduces in two passes through this many per-block partials, so that
    // its result does not depend on scheduling (deterministic).
    static constexpr int kReduceBlocks = 512;
    double* reducePartials() const { return static_cast<double*>(m_reduce); }
    double* reduceTotal() const { return reducePartials() + kReduceBlocks; }
    unsigned* targetFlag() const { return reinterpret_cast<unsigned*>(reduceTotal() + 1); }
    double* hostTotal() const { return static_cast<double*>(m_hostReduce); }
    unsigned* hostFlag() const { return reinterpret_cast<unsigned*>(hostTotal() + 1); }

    int m_device = 0;
    MatmulMath m_math = MatmulMath::Fp32;
    cudaStream_t m_stream = nullptr;
    cublasHandle_t m_blas = nullptr;
    // Device: kReduceBlocks partial doubles, the total (a double), the target flag
    // (an unsigned). Layout through the accessors above.
    void* m_reduce = nullptr;
    // Pinned host mirror of the total and the flag.
    void* m_hostReduce = nullptr;
    float* m_scratch = nullptr;
    std::size_t m_scratchCount = 0;
    float* m_ones = nullptr;
    std::size_t m_onesCount = 0;
    Bf16* m_bf16Scratch[3] = {nullptr, nullptr, nullptr};
    std::size_t m_bf16ScratchCount[3] = {0, 0, 0};
};

// Creates the CUDA kernels on `device` (an index for cudaSetDevice); throws KernelError
// when there is no such device or CUDA cannot start.
std::unique_ptr<Kernels> makeCudaKernels(int device, MatmulMath math = MatmulMath::Fp32);

} // namespace zerolab
