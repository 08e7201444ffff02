// Page protection around every device region; see fenced_kernels.h.
#include "tests/engine/fenced_kernels.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace zerolab::test {

class FencedKernels::Open {
public:
    explicit Open(FencedKernels& k) : m_k(k) {
        m_k.protectAll(PROT_READ | PROT_WRITE);
        ++m_k.m_ops;
    }
    ~Open() { m_k.protectAll(PROT_NONE); }
    Open(const Open&) = delete;
    Open& operator=(const Open&) = delete;

private:
    FencedKernels& m_k;
};

FencedKernels::FencedKernels(std::unique_ptr<Kernels> inner) : m_inner(std::move(inner)) {}

FencedKernels::~FencedKernels() {
    for (auto& [p, len] : m_regions)
        munmap(p, len);
}

void FencedKernels::protectAll(int prot) {
    for (auto& [p, len] : m_regions)
        if (mprotect(p, len, prot) != 0)
            throw KernelError(std::string("FencedKernels: mprotect failed: ") +
                              std::strerror(errno));
}

void* FencedKernels::allocate(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t len = (bytes + page - 1) / page * page + (bytes == 0 ? page : 0);
    void* p = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw KernelError("FencedKernels: mmap of " + std::to_string(len) + " bytes failed");
    m_regions[p] = len;
    return p;
}

void FencedKernels::release(void* p) {
    const auto it = m_regions.find(p);
    if (it == m_regions.end())
        throw KernelError("FencedKernels: release of a pointer it did not allocate");
    munmap(it->first, it->second);
    m_regions.erase(it);
}

void FencedKernels::copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) {
    Open o(*this);
    m_inner->copyToDevice(dst, hostSrc, bytes);
}
void FencedKernels::copyToHost(void* hostDst, const void* src, std::size_t bytes) {
    Open o(*this);
    m_inner->copyToHost(hostDst, src, bytes);
}
void FencedKernels::copyOnDevice(void* dst, const void* src, std::size_t bytes) {
    Open o(*this);
    m_inner->copyOnDevice(dst, src, bytes);
}
void FencedKernels::fillZero(void* p, std::size_t bytes) {
    Open o(*this);
    m_inner->fillZero(p, bytes);
}
void FencedKernels::encoderForward(float* out, const int* inp, const float* wte, const float* wpe,
                                   int B, int T, int C) {
    Open o(*this);
    m_inner->encoderForward(out, inp, wte, wpe, B, T, C);
}
void FencedKernels::encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp,
                                    int B, int T, int C) {
    Open o(*this);
    m_inner->encoderBackward(dwte, dwpe, dout, inp, B, T, C);
}
void FencedKernels::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                     const float* weight, const float* bias, int N, int C) {
    Open o(*this);
    m_inner->layernormForward(out, mean, rstd, inp, weight, bias, N, C);
}
void FencedKernels::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                      const float* inp, const float* weight, const float* mean,
                                      const float* rstd, int N, int C) {
    Open o(*this);
    m_inner->layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
}
void FencedKernels::matmulForward(float* out, const float* inp, const float* weight,
                                  const float* bias, int N, int C, int OC) {
    Open o(*this);
    m_inner->matmulForward(out, inp, weight, bias, N, C, OC);
}
void FencedKernels::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                   const float* inp, const float* weight, int N, int C, int OC) {
    Open o(*this);
    m_inner->matmulBackward(dinp, dweight, dbias, dout, inp, weight, N, C, OC);
}
void FencedKernels::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                     int T, int C, int NH) {
    Open o(*this);
    m_inner->attentionForward(out, preatt, att, qkv, B, T, C, NH);
}
void FencedKernels::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                      const float* qkv, const float* att, int B, int T, int C,
                                      int NH) {
    Open o(*this);
    m_inner->attentionBackward(dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
}
void FencedKernels::flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                                          const float* v, const FlashAttentionDims& d) {
    Open o(*this);
    m_inner->flashAttentionForward(out, lse, q, k, v, d);
}
void FencedKernels::flashAttentionBackward(float* dq, float* dk, float* dv, float* delta,
                                           const float* dout, const float* out, const float* lse,
                                           const float* q, const float* k, const float* v,
                                           const FlashAttentionDims& d) {
    Open o(*this);
    m_inner->flashAttentionBackward(dq, dk, dv, delta, dout, out, lse, q, k, v, d);
}
void FencedKernels::geluForward(float* out, const float* inp, std::size_t n) {
    Open o(*this);
    m_inner->geluForward(out, inp, n);
}
void FencedKernels::geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) {
    Open o(*this);
    m_inner->geluBackward(dinp, inp, dout, n);
}
void FencedKernels::residualForward(float* out, const float* a, const float* b, std::size_t n) {
    Open o(*this);
    m_inner->residualForward(out, a, b, n);
}
void FencedKernels::residualBackward(float* da, float* db, const float* dout, std::size_t n) {
    Open o(*this);
    m_inner->residualBackward(da, db, dout, n);
}
void FencedKernels::softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                               const int* targets, int B, int T, int V, int Vp) {
    Open o(*this);
    m_inner->softmaxCrossEntropyForward(losses, probs, logits, targets, B, T, V, Vp);
}
void FencedKernels::crossEntropySoftmaxBackward(float* dlogits, const float* dlosses,
                                                const float* probs, const int* targets, int B,
                                                int T, int V, int Vp) {
    Open o(*this);
    m_inner->crossEntropySoftmaxBackward(dlogits, dlosses, probs, targets, B, T, V, Vp);
}
void FencedKernels::rmsnormForward(float* out, float* rstd, const float* inp, const float* weight,
                                   int N, int C, float eps) {
    Open o(*this);
    m_inner->rmsnormForward(out, rstd, inp, weight, N, C, eps);
}
void FencedKernels::rmsnormBackward(float* dinp, float* dweight, const float* dout,
                                    const float* inp, const float* weight, const float* rstd, int N,
                                    int C) {
    Open o(*this);
    m_inner->rmsnormBackward(dinp, dweight, dout, inp, weight, rstd, N, C);
}
void FencedKernels::ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                                int rowStride) {
    Open o(*this);
    m_inner->ropeForward(x, cosSin, B, T, H, hs, rowStride);
}
void FencedKernels::ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                                 int rowStride) {
    Open o(*this);
    m_inner->ropeBackward(dx, cosSin, B, T, H, hs, rowStride);
}
void FencedKernels::swigluForward(float* out, const float* gate, const float* up, std::size_t n) {
    Open o(*this);
    m_inner->swigluForward(out, gate, up, n);
}
void FencedKernels::swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                                   const float* up, std::size_t n) {
    Open o(*this);
    m_inner->swigluBackward(dgate, dup, dout, gate, up, n);
}
void FencedKernels::adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                          const AdamParams& hp) {
    Open o(*this);
    m_inner->adamw(params, grads, m, v, n, hp);
}
void FencedKernels::adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m,
                               float* v, std::size_t n, const AdamParams& hp) {
    Open o(*this);
    m_inner->adamwMixed(master, paramsOut, grads, m, v, n, hp);
}
void FencedKernels::adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m,
                               float* v, std::size_t n, const AdamParams& hp) {
    Open o(*this);
    m_inner->adamwMixed(master, paramsOut, grads, m, v, n, hp);
}
void FencedKernels::toBf16(Bf16* out, const float* in, std::size_t n) {
    Open o(*this);
    m_inner->toBf16(out, in, n);
}
void FencedKernels::toFloat(float* out, const Bf16* in, std::size_t n) {
    Open o(*this);
    m_inner->toFloat(out, in, n);
}
void FencedKernels::accumulate(Bf16* dst, const Bf16* src, std::size_t n) {
    Open o(*this);
    m_inner->accumulate(dst, src, n);
}
void FencedKernels::accumulate(Bf16* dst, const float* src, std::size_t n) {
    Open o(*this);
    m_inner->accumulate(dst, src, n);
}
void FencedKernels::narrowToBf16InPlace(float* buf, std::size_t n) {
    Open o(*this);
    m_inner->narrowToBf16InPlace(buf, n);
}
void FencedKernels::axpy(float* y, float alpha, const float* x, std::size_t n) {
    Open o(*this);
    m_inner->axpy(y, alpha, x, n);
}
void FencedKernels::scale(float* x, float s, std::size_t n) {
    Open o(*this);
    m_inner->scale(x, s, n);
}
void FencedKernels::zero(float* x, std::size_t n) {
    Open o(*this);
    m_inner->zero(x, n);
}
void FencedKernels::zero(Bf16* x, std::size_t n) {
    Open o(*this);
    m_inner->zero(x, n);
}
double FencedKernels::sumSquares(const float* x, std::size_t n) {
    Open o(*this);
    return m_inner->sumSquares(x, n);
}
double FencedKernels::sumSquares(const Bf16* x, std::size_t n) {
    Open o(*this);
    return m_inner->sumSquares(x, n);
}

} // namespace zerolab::test
