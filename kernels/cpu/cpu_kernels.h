// The CPU implementation of Kernels: OpenBLAS sgemm for every matrix product
// (Linear layers and attention), OpenMP for the loops around them. One op (or
// one family of small ops) per .cpp file in this folder.
#pragma once

#include "kernels/kernels.h"

namespace zerolab {

class CpuKernels final : public Kernels {
public:
    // threads >= 1: OpenBLAS's thread count (process-wide) and this object's loop width.
    explicit CpuKernels(int threads);

    std::string_view name() const override { return "cpu"; }
    int threads() const override { return m_threads; }

    void* allocate(std::size_t bytes) override;
    void release(void* p) override;
    void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) override;
    void copyToHost(void* hostDst, const void* src, std::size_t bytes) override;
    void copyOnDevice(void* dst, const void* src, std::size_t bytes) override;
    void fillZero(void* p, std::size_t bytes) override;
    std::optional<DeviceMemory> deviceMemory() override { return std::nullopt; }
    void synchronize() override {}

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
    void narrowToBf16InPlace(float* buf, std::size_t n) override;
    void axpy(float* y, float alpha, const float* x, std::size_t n) override;
    void scale(float* x, float s, std::size_t n) override;
    void zero(float* x, std::size_t n) override;
    void zero(Bf16* x, std::size_t n) override;
    double sumSquares(const float* x, std::size_t n) override;
    double sumSquares(const Bf16* x, std::size_t n) override;

private:
    // Loops shorter than this run on the calling thread: a parallel region costs
    // more than it saves below it.
    static constexpr std::size_t kParallelMin = 1 << 15;

    // Thread count for a loop over n elements (1 below kParallelMin).
    int loopThreads(std::size_t n) const { return n >= kParallelMin ? m_threads : 1; }

    int m_threads;
};

} // namespace zerolab
