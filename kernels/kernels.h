// The compute-op interface: every op the GPT-2 model and the optimizer run, as
// forward/backward pairs (llm.c's op set), behind one seam with a CPU
// implementation now and a CUDA one later.
#pragma once

#include "kernels/bf16.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace zerolab {

// The one exception type of kernels/: invalid shapes or arguments (the message
// names the op and the offending value) and failed allocations.
class KernelError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Memory of a device with its own memory (cudaMemGetInfo): bytes in use by any process
// and in total.
struct DeviceMemory {
    long long used = 0;
    long long total = 0;
};

// Hyper-parameters of one Adam/AdamW step. Gradients are first multiplied by
// gradScale (1/accumulation, the clipping factor, ...). With decoupled = true
// (AdamW, DeepSpeed/PyTorch formula):
//   g = gradScale*grad; m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g*g
//   p -= lr * (mhat/(sqrt(vhat)+eps) + weightDecay*p), mhat = m/(1-b1^t), vhat = v/(1-b2^t)
// With decoupled = false (Adam): g = gradScale*grad + weightDecay*p, and no decay term in the
// update.
struct AdamParams {
    float lr = 1e-3f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float eps = 1e-8f;
    float weightDecay = 0.0f;
    int step = 1; // t, 1-based, for the bias correction
    float gradScale = 1.0f;
    bool decoupled = true;
};

// The shape and memory layout of the online-softmax ("flash") attention ops below: one
// description for GPT-2's packed qkv and for Llama's separate q, k, v with grouped-query
// attention. q holds NH query heads, k and v hold NKV key/value heads, hs channels each;
// query head h reads key/value head h / (NH/NKV) in place (no copy per query head).
// Token t of batch row b starts at element (b*T + t) * stride of its tensor, head h at
// h*hs within the token. out and dout are (B, T, NH*hs) contiguous; dq, dk, dv have the
// strides of q, k, v.
struct FlashAttentionDims {
    int B = 0;
    int T = 0;
    int NH = 0;  // query heads
    int NKV = 0; // key/value heads, dividing NH (NKV = NH: multi-head attention)
    int hs = 0;  // channels per head
    // Elements between consecutive tokens of q, k, v (and of dq, dk, dv).
    long long qStride = 0;
    long long kStride = 0;
    long long vStride = 0;

    // GPT-2: qkv(B, T, 3C), q, k, v side by side per token, C = NH*hs; the caller passes
    // qkv, qkv + C, qkv + 2C (and dqkv, dqkv + C, dqkv + 2C).
    static FlashAttentionDims packedQkv(int B, int T, int C, int NH) {
        if (NH < 1 || C % NH != 0)
            throw KernelError("FlashAttentionDims::packedQkv: channels C=" + std::to_string(C) +
                              " must be a positive multiple of heads NH=" + std::to_string(NH));
        return {B, T, NH, NH, C / NH, 3LL * C, 3LL * C, 3LL * C};
    }
    // Llama: q(B, T, NH*hs), k and v (B, T, NKV*hs), three contiguous tensors.
    static FlashAttentionDims separate(int B, int T, int NH, int NKV, int hs) {
        return {B,
                T,
                NH,
                NKV,
                hs,
                static_cast<long long>(NH) * hs,
                static_cast<long long>(NKV) * hs,
                static_cast<long long>(NKV) * hs};
    }
    // Floats of lse (B, NH, T), and of the backward's scratch delta (the same shape).
    std::size_t rowCount() const { return static_cast<std::size_t>(B) * NH * T; }
};

// Throws KernelError naming `op` and the value when `d` is no valid layout: a size < 1,
// NKV not dividing NH, a stride below its tensor's width (tokens would overlap) or above
// 2^31-1 (BLAS leading dimensions are int).
void checkFlashAttentionDims(const char* op, const FlashAttentionDims& d);

// Conventions of every op:
// - Pointers are device pointers of the implementation (host memory for the CPU
//   kernels); allocate them with allocate() so that code runs on any backend.
// - Row-major, fp32 compute. B batch, T time, C channels, NH heads (hs = C/NH),
//   OC out channels, V real vocabulary, Vp padded vocabulary (Vp >= V), N rows.
// - Forward ops overwrite their outputs. Backward ops ACCUMULATE (+=) into every
//   gradient they produce, so the caller zeroes gradients once per accumulation
//   boundary; the exceptions are scratch buffers, named as such.
// - Inputs and outputs do not alias unless an op says so.
// - Threading: an implementation is used from one host thread at a time; it runs
//   its own parallelism (threads given at construction) inside each call.
class Kernels {
public:
    virtual ~Kernels() = default;

    virtual std::string_view name() const = 0;
    virtual int threads() const = 0;

    // ---- memory: device buffers of this implementation ----
    // Returns `bytes` of device memory, 64-byte aligned; throws KernelError when it cannot.
    virtual void* allocate(std::size_t bytes) = 0;
    virtual void release(void* p) = 0;
    virtual void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) = 0;
    virtual void copyToHost(void* hostDst, const void* src, std::size_t bytes) = 0;
    virtual void copyOnDevice(void* dst, const void* src, std::size_t bytes) = 0;
    // Sets `bytes` bytes at device pointer p to zero.
    virtual void fillZero(void* p, std::size_t bytes) = 0;
    // The device's memory now, or nullopt where device memory is host memory (the CPU).
    virtual std::optional<DeviceMemory> deviceMemory() = 0;
    // Waits for all work issued so far (a no-op on the CPU, whose calls are synchronous).
    virtual void synchronize() = 0;

    // ---- encoder: token + position embedding ----
    // out(B,T,C) = wte[inp[b,t]] + wpe[t]; inp(B,T) in [0,Vp), wte(Vp,C), wpe(>=T,C).
    // wpe nullptr: no position table (Llama), out = wte[inp[b,t]].
    virtual void encoderForward(float* out, const int* inp, const float* wte, const float* wpe,
                                int B, int T, int C) = 0;
    // dwte(Vp,C) += scatter of dout(B,T,C) by token; dwpe(T,C) += sum over b (dwpe nullptr:
    // none, with forward's wpe nullptr).
    virtual void encoderBackward(float* dwte, float* dwpe, const float* dout, const int* inp, int B,
                                 int T, int C) = 0;

    // ---- layernorm over the last axis, eps 1e-5 ----
    // out(N,C), mean(N), rstd(N) written; inp(N,C), weight(C), bias(C).
    virtual void layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                  const float* weight, const float* bias, int N, int C) = 0;
    // dinp(N,C), dweight(C), dbias(C) +=; uses the forward's mean and rstd.
    virtual void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                   const float* inp, const float* weight, const float* mean,
                                   const float* rstd, int N, int C) = 0;

    // ---- matmul: out = inp * weight^T + bias (a Linear layer) ----
    // out(N,OC), inp(N,C), weight(OC,C), bias(OC) or nullptr.
    virtual void matmulForward(float* out, const float* inp, const float* weight, const float* bias,
                               int N, int C, int OC) = 0;
    // dinp(N,C) += dout*weight; dweight(OC,C) += dout^T*inp; dbias(OC) += column sums of dout
    // (dbias may be nullptr). dinp may be nullptr when the input needs no gradient.
    virtual void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                const float* inp, const float* weight, int N, int C, int OC) = 0;

    // ---- causal multi-head self-attention, scale 1/sqrt(hs) ----
    // qkv(B,T,3C) holds q, k, v side by side per token, head h at channels [h*hs, (h+1)*hs).
    // Writes out(B,T,C), preatt(B,NH,T,T) (scaled scores; entries above the diagonal are
    // unspecified) and att(B,NH,T,T) (softmax, exactly 0 above the diagonal).
    virtual void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                  int T, int C, int NH) = 0;
    // dqkv(B,T,3C) +=. dpreatt and datt (B,NH,T,T) are scratch: overwritten, not accumulated.
    virtual void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                   const float* qkv, const float* att, int B, int T, int C,
                                   int NH) = 0;

    // ---- causal attention without the (T,T) matrix: FlashAttention-2's online softmax ----
    // Scale 1/sqrt(hs), causal; layouts in FlashAttentionDims (GPT-2 packed or GQA).
    // Forward writes out(B,T,NH*hs) and lse(B,NH,T), each query row's log-sum-exp of its
    // scaled scores: all that the backward keeps, O(T) per head instead of attention's
    // (T,T) preatt and att.
    virtual void flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                                       const float* v, const FlashAttentionDims& d) = 0;
    // dq, dk, dv += (accumulated, like every backward; key/value head g receives the sum over
    // its NH/NKV query heads). Recomputes each tile's probabilities from q, k and lse.
    // delta (B,NH,T) is scratch from the caller, overwritten: D = rowsum(dout * out). No
    // other device memory (the CPU keeps one tile buffer per thread, outside the Kernels
    // buffers: 336 KiB at hs = 64; docs/kernels.md gives its size).
    virtual void flashAttentionBackward(float* dq, float* dk, float* dv, float* delta,
                                        const float* dout, const float* out, const float* lse,
                                        const float* q, const float* k, const float* v,
                                        const FlashAttentionDims& d) = 0;

    // ---- GELU, tanh approximation ----
    virtual void geluForward(float* out, const float* inp, std::size_t n) = 0;
    // dinp += gelu'(inp) * dout.
    virtual void geluBackward(float* dinp, const float* inp, const float* dout, std::size_t n) = 0;

    // ---- residual: out = a + b ----
    virtual void residualForward(float* out, const float* a, const float* b, std::size_t n) = 0;
    // da += dout; db += dout.
    virtual void residualBackward(float* da, float* db, const float* dout, std::size_t n) = 0;

    // ---- softmax + cross-entropy over the first V of Vp logits ----
    // losses(B,T) = -log probs[target]; probs(B,T,Vp) with probs[V..Vp) = 0; logits(B,T,Vp);
    // targets(B,T) in [0,V) (KernelError otherwise).
    virtual void softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                            const int* targets, int B, int T, int V, int Vp) = 0;
    // dlogits(B,T,Vp) += (probs - onehot(target)) * dlosses(B,T) over the first V entries;
    // the padded entries are left untouched.
    virtual void crossEntropySoftmaxBackward(float* dlogits, const float* dlosses,
                                             const float* probs, const int* targets, int B, int T,
                                             int V, int Vp) = 0;

    // ---- Llama family ops (Hugging Face LlamaForCausalLM; docs/kernels.md) ----
    // RMSNorm over the last axis (LlamaRMSNorm): no bias, no mean subtraction.
    //   rstd[n] = 1 / sqrt(mean_c(inp[n,c]^2) + eps); out[n,c] = (inp[n,c] * rstd[n]) * weight[c].
    // out(N,C) and rstd(N) written; inp(N,C), weight(C); eps > 0 (rms_norm_eps), else
    // KernelError. Backward reads inp, weight and rstd (not out).
    virtual void rmsnormForward(float* out, float* rstd, const float* inp, const float* weight,
                                int N, int C, float eps) = 0;
    // dinp(N,C) += rstd (weight dout - xhat mean_c(weight dout xhat)), xhat = inp rstd;
    // dweight(C) += sum over rows of xhat dout.
    virtual void rmsnormBackward(float* dinp, float* dweight, const float* dout, const float* inp,
                                 const float* weight, const float* rstd, int N, int C) = 0;

    // Rotary position embedding in HF's rotate_half convention, IN PLACE. x holds B*T token
    // rows of rowStride floats (row b*T+t starts at x + (b*T+t)*rowStride); each row holds H
    // heads of hs floats from its start (rowStride >= H*hs): q with H = NH, k with H = NKV, or
    // the q or k part of a packed buffer. With j = hs/2, for i < j and token position t:
    //   x[i]   <- x[i]   * cos[t,i] - x[i+j] * sin[t,i]
    //   x[i+j] <- x[i+j] * cos[t,i] + x[i]   * sin[t,i]
    // cosSin is a device copy of ropeTable() (kernels/rope.h) with at least T rows for this
    // hs: row t holds cos(t f_i) for i < j, then sin(t f_i). Positions are 0..T-1 in every
    // sequence. hs must be even and > 0 (an odd hs is a KernelError naming it).
    virtual void ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                             int rowStride) = 0;
    // The inverse rotation (the transpose), IN PLACE on the gradient: dx holds d(rotated) on
    // entry and d(unrotated) on return. Not an accumulation: the rotation is linear and
    // invertible, so the caller's buffer simply changes basis. Reads only cosSin.
    virtual void ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                              int rowStride) = 0;

    // SwiGLU's gate (LlamaMLP, hidden_act "silu"): out = silu(gate) * up, silu(g) = g sigmoid(g);
    // n elements each. Backward reads gate and up (not out).
    virtual void swigluForward(float* out, const float* gate, const float* up, std::size_t n) = 0;
    // dgate += dout up sigmoid(g) (1 + g (1 - sigmoid(g))); dup += dout silu(g).
    virtual void swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                                const float* up, std::size_t n) = 0;

    // ---- optimizer (see AdamParams for the formula) ----
    // params, m, v (n) updated in place; grads (n) read.
    virtual void adamw(float* params, const float* grads, float* m, float* v, std::size_t n,
                       const AdamParams& hp) = 0;
    // Mixed precision: master, m, v fp32 updated in place; paramsOut (bf16) = the new master,
    // rounded to nearest even; grads bf16 or fp32.
    virtual void adamwMixed(float* master, Bf16* paramsOut, const Bf16* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) = 0;
    virtual void adamwMixed(float* master, Bf16* paramsOut, const float* grads, float* m, float* v,
                            std::size_t n, const AdamParams& hp) = 0;

    // ---- conversions and vector utilities ----
    // out = round-to-nearest-even(in).
    virtual void toBf16(Bf16* out, const float* in, std::size_t n) = 0;
    // out = in (exact).
    virtual void toFloat(float* out, const Bf16* in, std::size_t n) = 0;
    // dst = round-to-nearest-even(dst + src), the sum in fp32: accumulation into bf16
    // gradients.
    virtual void accumulate(Bf16* dst, const Bf16* src, std::size_t n) = 0;
    virtual void accumulate(Bf16* dst, const float* src, std::size_t n) = 0;
    // Narrows n floats to bf16 in the same memory: afterwards the buffer, read as Bf16*,
    // holds round-to-nearest-even(original[i]) at i (its first 2n bytes; the rest is
    // unspecified). For a bf16 collective on an fp32 gradient without a second buffer.
    virtual void narrowToBf16InPlace(float* buf, std::size_t n) = 0;
    // y += alpha * x.
    virtual void axpy(float* y, float alpha, const float* x, std::size_t n) = 0;
    virtual void scale(float* x, float s, std::size_t n) = 0;
    virtual void zero(float* x, std::size_t n) = 0;
    virtual void zero(Bf16* x, std::size_t n) = 0;
    // Sum of x[i]^2 accumulated in double (for global-norm clipping).
    virtual double sumSquares(const float* x, std::size_t n) = 0;
    virtual double sumSquares(const Bf16* x, std::size_t n) = 0;
};

// The CPU implementation: OpenBLAS sgemm plus OpenMP loops. `threads` (>= 1) sets both
// OpenBLAS's thread count (process-wide) and the width of this object's parallel loops.
std::unique_ptr<Kernels> makeCpuKernels(int threads);

} // namespace zerolab
