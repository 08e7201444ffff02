// Kernels whose device memory the host cannot touch: a wrapper around the CPU kernels
// that maps every allocation on pages of its own and keeps them PROT_NONE except
// while one of its own ops runs. Code that reads or writes a device pointer outside
// the Kernels interface (as it could not on a GPU) dies with SIGSEGV. The engine
// tests train through it to show the engine, the model, the trainer and the staged
// communicator go through Kernels for every access, as the CUDA backend needs.
#pragma once

#include "kernels/kernels.h"

#include <cstddef>
#include <map>
#include <memory>

namespace zerolab::test {

class FencedKernels final : public Kernels {
public:
    explicit FencedKernels(std::unique_ptr<Kernels> inner);
    ~FencedKernels() override;

    std::string_view name() const override { return "fenced-cpu"; }
    int threads() const override { return m_inner->threads(); }

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

    // Ops run so far (a run that made none proves nothing).
    long long opCount() const { return m_ops; }

private:
    // Opens every region for the lifetime of one op, then closes them again.
    class Open;
    void protectAll(int prot);

    std::unique_ptr<Kernels> m_inner;
    std::map<void*, std::size_t> m_regions; // start -> mapped length
    long long m_ops = 0;
};

} // namespace zerolab::test
