// Kernels that hand every op to an inner implementation through one hook, run(): the
// body the engine tests' instrumented kernels share (FencedKernels: device memory the host
// cannot touch; DelayedKernels: ops queued on a stream and run later on another thread).
// A subclass says how an op runs and owns memory (allocate, release) and synchronisation.
#pragma once

#include "kernels/kernels.h"

#include <functional>
#include <memory>

namespace zerolab::test {

class ForwardingKernels : public Kernels {
public:
    explicit ForwardingKernels(std::unique_ptr<Kernels> inner) : m_inner(std::move(inner)) {}

    int threads() const override { return m_inner->threads(); }

    void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) final;
    void copyToHost(void* hostDst, const void* src, std::size_t bytes) final;
    void copyOnDevice(void* dst, const void* src, std::size_t bytes) final;
    void fillZero(void* p, std::size_t bytes) final;

    void encoderForward(float* out, const int* inp, const float* wte, const float* wpe, int B,
                        int T, int C) final;
    void encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T,
                         int C) final;
    void layernormForward(float* out, float* mean, float* rstd, const float* inp,
                          const float* weight, const float* bias, int N, int C) final;
    void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                           const float* inp, const float* weight, const float* mean,
                           const float* rstd, int N, int C) final;
    void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int N,
                       int C, int OC) final;
    void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                        const float* inp, const float* weight, int N, int C, int OC) final;
    void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T,
                          int C, int NH) final;
    void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                           const float* qkv, const float* att, int B, int T, int C, int NH) final;
    void flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                               const float* v, const FlashAttentionDims& d) final;
    void flashAttentionBackward(float* dq, float* dk, float* dv, float* delta, const float* dout,
                                const float* out, const float* lse, const float* q, const float* k,
                                const float* v, const FlashAttentionDims& d) final;
    void geluForward(float* out, const float* inp, std::size_t n) final;
    void geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) final;
    void residualForward(float* out, const float* a, const float* b, std::size_t n) final;
    void residualBackward(float* da, float* db, const float* dout, std::size_t n) final;
    void softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                    const int* targets, int B, int T, int V, int Vp) final;
    void crossEntropySoftmaxBackward(float* dlogits, const float* dlosses, const float* probs,
                                     const int* targets, int B, int T, int V, int Vp) final;
    void rmsnormForward(float* out, float* rstd, const float* inp, const float* weight, int N,
                        int C, float eps) final;
    void rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                         const float* weight, const float* rstd, int N, int C) final;
    void ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                     int rowStride) final;
    void ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                      int rowStride) final;
    void swigluForward(float* out, const float* gate, const float* up, std::size_t n) final;
    void swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                        const float* up, std::size_t n) final;
    void adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
               const AdamParams& hp) final;
    void adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                    std::size_t n, const AdamParams& hp) final;
    void adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                    std::size_t n, const AdamParams& hp) final;
    void toBf16(Bf16* out, const float* in, std::size_t n) final;
    void toFloat(float* out, const Bf16* in, std::size_t n) final;
    void accumulate(Bf16* dst, const Bf16* src, std::size_t n) final;
    void accumulate(Bf16* dst, const float* src, std::size_t n) final;
    void narrowToBf16InPlace(float* buf, std::size_t n) final;
    void axpy(float* y, float alpha, const float* x, std::size_t n) final;
    void scale(float* x, float s, std::size_t n) final;
    void zero(float* x, std::size_t n) final;
    void zero(Bf16* x, std::size_t n) final;
    double sumSquares(const float* x, std::size_t n) final;
    double sumSquares(const Bf16* x, std::size_t n) final;

protected:
    // How the CUDA kernels (kernels/cuda) complete an op. Queued: enqueued on the stream,
    // the call returns before it runs. Waited: done when the call returns, because the
    // CUDA op synchronises its stream: the copies to and from the host (the host buffer is
    // free or filled on return), sumSquares (it returns the value) and the two
    // cross-entropy ops (their target check copies a flag back first).
    enum class Completion { Queued, Waited };
    // Runs `op` (a call of the inner kernels, its arguments captured by value when Queued)
    // as `c` says.
    virtual void run(Completion c, std::function<void()> op) = 0;
    Kernels& inner() { return *m_inner; }

private:
    std::unique_ptr<Kernels> m_inner;
};

} // namespace zerolab::test
