// Kernels that record what a network runs: a wrapper around the CPU kernels that appends
// each compute op, with its work as the families' descriptions count it (kernel_ops.h),
// before running it. A test then holds a family's compute_ops (family.h) to the kernels
// its network really calls, piece by piece.
#pragma once

#include "kernels/kernels.h"
#include "runtime/model/kernel_ops.h"

#include <memory>
#include <vector>

namespace zerolab::test {

class RecordingKernels final : public Kernels {
public:
    explicit RecordingKernels(std::unique_ptr<Kernels> inner) : m_in(std::move(inner)) {}
    std::vector<KernelOp> ops;

    std::string_view name() const override { return "recording-cpu"; }
    int threads() const override { return m_in->threads(); }
    void* allocate(std::size_t bytes) override { return m_in->allocate(bytes); }
    void release(void* p) override { m_in->release(p); }
    void copyToDevice(void* d, const void* s, std::size_t n) override {
        m_in->copyToDevice(d, s, n);
    }
    void copyToHost(void* d, const void* s, std::size_t n) override { m_in->copyToHost(d, s, n); }
    void copyOnDevice(void* d, const void* s, std::size_t n) override {
        m_in->copyOnDevice(d, s, n);
    }
    void fillZero(void* p, std::size_t n) override { m_in->fillZero(p, n); }
    std::optional<DeviceMemory> deviceMemory() override { return m_in->deviceMemory(); }
    void synchronize() override { m_in->synchronize(); }

    void encoderForward(float* out, const int* inp, const float* wte, const float* wpe, int B,
                        int T, int C) override {
        add(OpKind::EncoderForward, double(B) * T * C);
        m_in->encoderForward(out, inp, wte, wpe, B, T, C);
    }
    void encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T,
                         int C) override {
        add(OpKind::EncoderBackward, double(B) * T * C);
        m_in->encoderBackward(dwte, dwpe, dout, inp, B, T, C);
    }
    void layernormForward(float* out, float* mean, float* rstd, const float* inp,
                          const float* weight, const float* bias, int N, int C) override {
        add(OpKind::LayernormForward, double(N) * C);
        m_in->layernormForward(out, mean, rstd, inp, weight, bias, N, C);
    }
    void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                           const float* inp, const float* weight, const float* mean,
                           const float* rstd, int N, int C) override {
        add(OpKind::LayernormBackward, double(N) * C);
        m_in->layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
    }
    void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int N,
                       int C, int OC) override {
        ops.push_back(matmulOp(true, N, C, OC));
        m_in->matmulForward(out, inp, weight, bias, N, C, OC);
    }
    void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                        const float* inp, const float* weight, int N, int C, int OC) override {
        ops.push_back(matmulOp(false, N, C, OC));
        m_in->matmulBackward(dinp, dweight, dbias, dout, inp, weight, N, C, OC);
    }
    // Attention: one causal tile product over every head is B T^2 C FLOPs; forward two,
    // backward four (standard) or five (flash recomputes the scores).
    void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T,
                          int C, int NH) override {
        add(OpKind::AttentionForward, 2 * double(B) * T * T * C);
        m_in->attentionForward(out, preatt, att, qkv, B, T, C, NH);
    }
    void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                           const float* qkv, const float* att, int B, int T, int C,
                           int NH) override {
        add(OpKind::AttentionBackward, 4 * double(B) * T * T * C);
        m_in->attentionBackward(dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
    }
    void flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                               const float* v, const FlashAttentionDims& d) override {
        add(OpKind::FlashAttentionForward, 2 * double(d.B) * d.T * d.T * (double(d.NH) * d.hs));
        m_in->flashAttentionForward(out, lse, q, k, v, d);
    }
    void flashAttentionBackward(float* dq, float* dk, float* dv, float* delta, const float* dout,
                                const float* out, const float* lse, const float* q, const float* k,
                                const float* v, const FlashAttentionDims& d) override {
        add(OpKind::FlashAttentionBackward, 5 * double(d.B) * d.T * d.T * (double(d.NH) * d.hs));
        m_in->flashAttentionBackward(dq, dk, dv, delta, dout, out, lse, q, k, v, d);
    }
    void geluForward(float* out, const float* inp, std::size_t n) override {
        add(OpKind::GeluForward, double(n));
        m_in->geluForward(out, inp, n);
    }
    void geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) override {
        add(OpKind::GeluBackward, double(n));
        m_in->geluBackward(dinp, inp, dout, n);
    }
    void residualForward(float* out, const float* a, const float* b, std::size_t n) override {
        add(OpKind::Residual, double(n));
        m_in->residualForward(out, a, b, n);
    }
    void residualBackward(float* da, float* db, const float* dout, std::size_t n) override {
        add(OpKind::Residual, double(n));
        m_in->residualBackward(da, db, dout, n);
    }
    void softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                    const int* targets, int B, int T, int V, int Vp) override {
        add(OpKind::SoftmaxCrossEntropy, double(B) * T * Vp);
        m_in->softmaxCrossEntropyForward(losses, probs, logits, targets, B, T, V, Vp);
    }
    void crossEntropySoftmaxBackward(float* dlogits, const float* dlosses, const float* probs,
                                     const int* targets, int B, int T, int V, int Vp) override {
        add(OpKind::CrossEntropyBackward, double(B) * T * Vp);
        m_in->crossEntropySoftmaxBackward(dlogits, dlosses, probs, targets, B, T, V, Vp);
    }
    void rmsnormForward(float* out, float* rstd, const float* inp, const float* weight, int N,
                        int C, float eps) override {
        add(OpKind::RmsnormForward, double(N) * C);
        m_in->rmsnormForward(out, rstd, inp, weight, N, C, eps);
    }
    void rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                         const float* weight, const float* rstd, int N, int C) override {
        add(OpKind::RmsnormBackward, double(N) * C);
        m_in->rmsnormBackward(dinp, dweight, dout, inp, weight, rstd, N, C);
    }
    void ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                     int rowStride) override {
        add(OpKind::Rope, double(B) * T * H * hs);
        m_in->ropeForward(x, cosSin, B, T, H, hs, rowStride);
    }
    void ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                      int rowStride) override {
        add(OpKind::Rope, double(B) * T * H * hs);
        m_in->ropeBackward(dx, cosSin, B, T, H, hs, rowStride);
    }
    void swigluForward(float* out, const float* gate, const float* up, std::size_t n) override {
        add(OpKind::SwigluForward, double(n));
        m_in->swigluForward(out, gate, up, n);
    }
    void swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                        const float* up, std::size_t n) override {
        add(OpKind::SwigluBackward, double(n));
        m_in->swigluBackward(dgate, dup, dout, gate, up, n);
    }
    void adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
               const AdamParams& hp) override {
        add(OpKind::Adamw, double(n));
        m_in->adamw(params, grads, m, v, n, hp);
    }
    void adamwMixed(float* master, Bf16* out, const Bf16* grads, float* m, float* v, std::size_t n,
                    const AdamParams& hp) override {
        add(OpKind::AdamwMixed, double(n));
        m_in->adamwMixed(master, out, grads, m, v, n, hp);
    }
    void adamwMixed(float* master, Bf16* out, const float* grads, float* m, float* v, std::size_t n,
                    const AdamParams& hp) override {
        add(OpKind::AdamwMixed, double(n));
        m_in->adamwMixed(master, out, grads, m, v, n, hp);
    }
    void toBf16(Bf16* out, const float* in, std::size_t n) override {
        add(OpKind::Cast, double(n));
        m_in->toBf16(out, in, n);
    }
    void toFloat(float* out, const Bf16* in, std::size_t n) override {
        add(OpKind::Cast, double(n));
        m_in->toFloat(out, in, n);
    }
    void accumulate(Bf16* dst, const Bf16* src, std::size_t n) override {
        add(OpKind::Axpy, double(n));
        m_in->accumulate(dst, src, n);
    }
    void accumulate(Bf16* dst, const float* src, std::size_t n) override {
        add(OpKind::Axpy, double(n));
        m_in->accumulate(dst, src, n);
    }
    void narrowToBf16InPlace(float* buf, std::size_t n) override {
        add(OpKind::Cast, double(n));
        m_in->narrowToBf16InPlace(buf, n);
    }
    void axpy(float* y, float alpha, const float* x, std::size_t n) override {
        add(OpKind::Axpy, double(n));
        m_in->axpy(y, alpha, x, n);
    }
    void scale(float* x, float s, std::size_t n) override {
        add(OpKind::Axpy, double(n));
        m_in->scale(x, s, n);
    }
    void zero(float* x, std::size_t n) override {
        add(OpKind::Zero, double(n));
        m_in->zero(x, n);
    }
    void zero(Bf16* x, std::size_t n) override {
        add(OpKind::Zero, double(n));
        m_in->zero(x, n);
    }
    double sumSquares(const float* x, std::size_t n) override {
        add(OpKind::SumSquares, double(n));
        return m_in->sumSquares(x, n);
    }
    double sumSquares(const Bf16* x, std::size_t n) override {
        add(OpKind::SumSquares, double(n));
        return m_in->sumSquares(x, n);
    }

private:
    void add(OpKind kind, double work) { ops.push_back(elementsOp(kind, work)); }
    std::unique_ptr<Kernels> m_in;
};

} // namespace zerolab::test
