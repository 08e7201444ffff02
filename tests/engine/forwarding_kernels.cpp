// Every op of ForwardingKernels, handed to run(); see forwarding_kernels.h.
#include "tests/engine/forwarding_kernels.h"

namespace zerolab::test {

void ForwardingKernels::copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) {
    run(Completion::Waited, [&] { m_inner->copyToDevice(dst, hostSrc, bytes); });
}
void ForwardingKernels::copyToHost(void* hostDst, const void* src, std::size_t bytes) {
    run(Completion::Waited, [&] { m_inner->copyToHost(hostDst, src, bytes); });
}
void ForwardingKernels::copyOnDevice(void* dst, const void* src, std::size_t bytes) {
    run(Completion::Queued, [=, this] { m_inner->copyOnDevice(dst, src, bytes); });
}
void ForwardingKernels::fillZero(void* p, std::size_t bytes) {
    run(Completion::Queued, [=, this] { m_inner->fillZero(p, bytes); });
}
void ForwardingKernels::encoderForward(float* out, const int* inp, const float* wte,
                                       const float* wpe, int B, int T, int C) {
    run(Completion::Queued, [=, this] { m_inner->encoderForward(out, inp, wte, wpe, B, T, C); });
}
void ForwardingKernels::encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp,
                                        int B, int T, int C) {
    run(Completion::Queued,
        [=, this] { m_inner->encoderBackward(dwte, dwpe, dout, inp, B, T, C); });
}
void ForwardingKernels::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                         const float* weight, const float* bias, int N, int C) {
    run(Completion::Queued,
        [=, this] { m_inner->layernormForward(out, mean, rstd, inp, weight, bias, N, C); });
}
void ForwardingKernels::layernormBackward(float* dinp, float* dweight, float* dbias,
                                          const float* dout, const float* inp, const float* weight,
                                          const float* mean, const float* rstd, int N, int C) {
    run(Completion::Queued, [=, this] {
        m_inner->layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
    });
}
void ForwardingKernels::matmulForward(float* out, const float* inp, const float* weight,
                                      const float* bias, int N, int C, int OC) {
    run(Completion::Queued,
        [=, this] { m_inner->matmulForward(out, inp, weight, bias, N, C, OC); });
}
void ForwardingKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                       const float* inp, const float* weight, int N, int C,
                                       int OC) {
    run(Completion::Queued,
        [=, this] { m_inner->matmulBackward(dinp, dweight, dbias, dout, inp, weight, N, C, OC); });
}
void ForwardingKernels::attentionForward(float* out, float* preatt, float* att, const float* qkv,
                                         int B, int T, int C, int NH) {
    run(Completion::Queued,
        [=, this] { m_inner->attentionForward(out, preatt, att, qkv, B, T, C, NH); });
}
void ForwardingKernels::attentionBackward(float* dqkv, float* dpreatt, float* datt,
                                          const float* dout, const float* qkv, const float* att,
                                          int B, int T, int C, int NH) {
    run(Completion::Queued, [=, this] {
        m_inner->attentionBackward(dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
    });
}
void ForwardingKernels::flashAttentionForward(float* out, float* lse, const float* q,
                                              const float* k, const float* v,
                                              const FlashAttentionDims& d) {
    run(Completion::Queued, [=, this] { m_inner->flashAttentionForward(out, lse, q, k, v, d); });
}
void ForwardingKernels::flashAttentionBackward(float* dq, float* dk, float* dv, float* delta,
                                               const float* dout, const float* out,
                                               const float* lse, const float* q, const float* k,
                                               const float* v, const FlashAttentionDims& d) {
    run(Completion::Queued, [=, this] {
        m_inner->flashAttentionBackward(dq, dk, dv, delta, dout, out, lse, q, k, v, d);
    });
}
void ForwardingKernels::geluForward(float* out, const float* inp, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->geluForward(out, inp, n); });
}
void ForwardingKernels::geluBackward(float* dinp, const float* inp, const float* dout,
                                     std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->geluBackward(dinp, inp, dout, n); });
}
void ForwardingKernels::residualForward(float* out, const float* a, const float* b, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->residualForward(out, a, b, n); });
}
void ForwardingKernels::residualBackward(float* da, float* db, const float* dout, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->residualBackward(da, db, dout, n); });
}
void ForwardingKernels::softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                                   const int* targets, int B, int T, int V,
                                                   int Vp) {
    run(Completion::Waited,
        [&] { m_inner->softmaxCrossEntropyForward(losses, probs, logits, targets, B, T, V, Vp); });
}
void ForwardingKernels::crossEntropySoftmaxBackward(float* dlogits, const float* dlosses,
                                                    const float* probs, const int* targets, int B,
                                                    int T, int V, int Vp) {
    run(Completion::Waited, [&] {
        m_inner->crossEntropySoftmaxBackward(dlogits, dlosses, probs, targets, B, T, V, Vp);
    });
}
void ForwardingKernels::rmsnormForward(float* out, float* rstd, const float* inp,
                                       const float* weight, int N, int C, float eps) {
    run(Completion::Queued,
        [=, this] { m_inner->rmsnormForward(out, rstd, inp, weight, N, C, eps); });
}
void ForwardingKernels::rmsnormBackward(float* dinp, float* dweight, const float* dout,
                                        const float* inp, const float* weight, const float* rstd,
                                        int N, int C) {
    run(Completion::Queued,
        [=, this] { m_inner->rmsnormBackward(dinp, dweight, dout, inp, weight, rstd, N, C); });
}
void ForwardingKernels::ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                                    int rowStride) {
    run(Completion::Queued, [=, this] { m_inner->ropeForward(x, cosSin, B, T, H, hs, rowStride); });
}
void ForwardingKernels::ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                                     int rowStride) {
    run(Completion::Queued,
        [=, this] { m_inner->ropeBackward(dx, cosSin, B, T, H, hs, rowStride); });
}
void ForwardingKernels::swigluForward(float* out, const float* gate, const float* up,
                                      std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->swigluForward(out, gate, up, n); });
}
void ForwardingKernels::swigluBackward(float* dgate, float* dup, const float* dout,
                                       const float* gate, const float* up, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->swigluBackward(dgate, dup, dout, gate, up, n); });
}
void ForwardingKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                              const AdamParams& hp) {
    run(Completion::Queued, [=, this] { m_inner->adamw(params, grads, m, v, n, hp); });
}
void ForwardingKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m,
                                   float* v, std::size_t n, const AdamParams& hp) {
    run(Completion::Queued,
        [=, this] { m_inner->adamwMixed(master, paramsOut, grads, m, v, n, hp); });
}
void ForwardingKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m,
                                   float* v, std::size_t n, const AdamParams& hp) {
    run(Completion::Queued,
        [=, this] { m_inner->adamwMixed(master, paramsOut, grads, m, v, n, hp); });
}
void ForwardingKernels::toBf16(Bf16* out, const float* in, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->toBf16(out, in, n); });
}
void ForwardingKernels::toFloat(float* out, const Bf16* in, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->toFloat(out, in, n); });
}
void ForwardingKernels::accumulate(Bf16* dst, const Bf16* src, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->accumulate(dst, src, n); });
}
void ForwardingKernels::accumulate(Bf16* dst, const float* src, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->accumulate(dst, src, n); });
}
void ForwardingKernels::narrowToBf16InPlace(float* buf, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->narrowToBf16InPlace(buf, n); });
}
void ForwardingKernels::axpy(float* y, float alpha, const float* x, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->axpy(y, alpha, x, n); });
}
void ForwardingKernels::scale(float* x, float s, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->scale(x, s, n); });
}
void ForwardingKernels::zero(float* x, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->zero(x, n); });
}
void ForwardingKernels::zero(Bf16* x, std::size_t n) {
    run(Completion::Queued, [=, this] { m_inner->zero(x, n); });
}
double ForwardingKernels::sumSquares(const float* x, std::size_t n) {
    double sum = 0;
    run(Completion::Waited, [&] { sum = m_inner->sumSquares(x, n); });
    return sum;
}
double ForwardingKernels::sumSquares(const Bf16* x, std::size_t n) {
    double sum = 0;
    run(Completion::Waited, [&] { sum = m_inner->sumSquares(x, n); });
    return sum;
}

} // namespace zerolab::test
