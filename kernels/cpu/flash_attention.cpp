// Causal attention without the (T,T) matrix, FlashAttention-2's algorithm on the CPU:
// per query tile, an online softmax over key tiles (running row max m and sum l, the
// output rescaled by exp(m_old - m_new) as the max grows); the forward keeps only the
// output and each row's log-sum-exp, and the backward recomputes every tile's
// probabilities from them. Tile products are sgemm calls on strided views of q, k, v
// (no copies; grouped-query heads read their key/value head in place), the row passes
// vectorised loops, and the (64 x 256) tiles live in per-thread buffers that stay in cache.
#include "kernels/cpu/blas_threads.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/fast_math.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace zerolab {

namespace {

// Query rows x key columns per tile, and the row strips of the diagonal square. Measured
// at the mini shape (T = 256, hs = 64, 1 thread, CPU time of forward + backward against
// today's attention): 64 x 64 tiles 0.86x as fast, 64 x 256 0.92x (fewer, larger sgemm
// calls; OpenBLAS' per-call cost shows at these sizes), 128 x 256 0.87-0.92x, and 16-row
// diagonal strips (instead of the whole 64 x 64 square) parity. A 64 x 256 tile pair is
// 64 KiB per buffer: still in L2, and the same for any T.
constexpr int kQueryTile = 64;
constexpr int kKeyTile = 256;
constexpr int kDiagonalRows = 16;
static_assert(kQueryTile <= kKeyTile, "a diagonal block fits a key tile");

// Number of keys of a tile at or before query row `row` (causal), in [0, cols].
int causalValid(int row, int c0, int cols) {
    return std::clamp(row - c0 + 1, 0, cols);
}

// Visits the blocks (i0, n, c0, cols) that cover query rows [r0, r0 + rows) against their
// causal keys: rows r0+i0 .. r0+i0+n-1 against keys c0 .. c0+cols-1. Keys before the tile
// come in kKeyTile chunks with all rows; the diagonal square, half of it masked, in
// kDiagonalRows-row strips each against the keys up to its own last row, so that less
// of the masked half is multiplied (the sgemms cannot skip it).
template <typename Visit> void forEachCausalBlock(int r0, int rows, Visit&& visit) {
    if (rows <= kDiagonalRows) { // no strips: the diagonal joins the last key chunk
        for (int c0 = 0; c0 < r0 + rows; c0 += kKeyTile)
            visit(0, rows, c0, std::min(kKeyTile, r0 + rows - c0));
        return;
    }
    for (int c0 = 0; c0 < r0; c0 += kKeyTile)
        visit(0, rows, c0, std::min(kKeyTile, r0 - c0));
    for (int i0 = 0; i0 < rows; i0 += kDiagonalRows) {
        const int n = std::min(kDiagonalRows, rows - i0);
        visit(i0, n, r0, i0 + n);
    }
}

// One query row of the online softmax against a key tile. s[0, valid) are the row's scaled
// scores for keys at or before the query; on return s[0, cols) holds exp(s - m_new) (0
// from `valid` on), m and l are the running max and sum, and the return value is
// exp(m_old - m_new), the factor for the row's running output.
ZEROLAB_CPU_CLONES float onlineSoftmaxRow(float* s, int valid, int cols, float& m, float& l) {
    if (valid == 0) {
        std::fill(s, s + cols, 0.0f);
        return 1.0f;
    }
    float rowMax = s[0];
#pragma omp simd reduction(max : rowMax)
    for (int j = 1; j < valid; ++j)
        rowMax = std::max(rowMax, s[j]);
    const float mNew = std::max(m, rowMax);
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int j = 0; j < valid; ++j) {
        const float e = cpu::expApprox(s[j] - mNew);
        s[j] = e;
        sum += e;
    }
    std::fill(s + valid, s + cols, 0.0f);
    const float alpha = std::exp(m - mNew); // m = -inf on the first tile: alpha = 0
    l = l * alpha + sum;
    m = mNew;
    return alpha;
}

// Backward, one query row against a key tile: the probabilities recomputed from the
// row's log-sum-exp, p = exp(s - lse) over s, and the score gradients
// ds = p * (dp - D) over dp; both 0 past the causal boundary.
ZEROLAB_CPU_CLONES void probabilityAndGradientRow(float* s, float* dp, int valid, int cols,
                                                  float lse, float D) {
#pragma omp simd
    for (int j = 0; j < valid; ++j) {
        const float p = cpu::expApprox(s[j] - lse);
        s[j] = p;
        dp[j] = p * (dp[j] - D);
    }
    std::fill(s + valid, s + cols, 0.0f);
    std::fill(dp + valid, dp + cols, 0.0f);
}

ZEROLAB_CPU_CLONES float dot(const float* a, const float* b, int n) {
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int j = 0; j < n; ++j)
        sum += a[j] * b[j];
    return sum;
}

ZEROLAB_CPU_CLONES void scaleRow(float* x, float s, int n) {
#pragma omp simd
    for (int j = 0; j < n; ++j)
        x[j] *= s;
}

// The row offset of token (b, t) of a tensor with `stride` elements per token.
std::size_t tokenAt(int b, int T, int t, long long stride) {
    return (static_cast<std::size_t>(b) * T + t) * static_cast<std::size_t>(stride);
}

// Per-thread tile buffers of the forward: scores/probabilities (Br x Bc), the running
// output (Br x hs), and the running max and sum (Br each).
std::size_t forwardScratchFloats(int hs) {
    return static_cast<std::size_t>(kQueryTile) * (kKeyTile + hs + 2);
}

// ... of the backward: probabilities and their gradient (Br x Bc each).
std::size_t backwardScratchFloats() {
    return 2 * static_cast<std::size_t>(kQueryTile) * kKeyTile;
}

// The calling thread's tile buffer of at least n floats, kept between calls (OpenMP's
// threads persist): a fresh 128 KiB vector per call is mmap'ed, faulted in and zeroed
// every time, 5% of the op at T = 256.
float* threadScratch(std::size_t n) {
    thread_local std::vector<float> buffer;
    if (buffer.size() < n)
        buffer.resize(n);
    return buffer.data();
}

} // namespace

void CpuKernels::flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                                       const float* v, const FlashAttentionDims& d) {
    checkFlashAttentionDims("flashAttentionForward", d);
    const int T = d.T, NH = d.NH, hs = d.hs, group = d.NH / d.NKV;
    const int qS = static_cast<int>(d.qStride), kS = static_cast<int>(d.kStride),
              vS = static_cast<int>(d.vStride), oS = NH * hs;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
    const int tiles = (T + kQueryTile - 1) / kQueryTile;
    const int heads = d.B * NH;
    const int tasks = heads * tiles;
    const int threads = std::min(m_threads, tasks);
    cpu::BlasSingleThreaded blasGuard(threads > 1 ? m_threads : 1);
#pragma omp parallel num_threads(threads)
    {
        float* S = threadScratch(forwardScratchFloats(hs));
        float* O = S + kQueryTile * kKeyTile;
        float* m = O + static_cast<std::size_t>(kQueryTile) * hs;
        float* l = m + kQueryTile;
        // Causal tiles cost in proportion to their index: the last (largest) tiles of
        // every head go first so that the dynamic schedule ends on small ones.
#pragma omp for schedule(dynamic, 1)
        for (int task = 0; task < tasks; ++task) {
            const int tile = tiles - 1 - task / heads;
            const int bh = task % heads, b = bh / NH, h = bh % NH, g = h / group;
            const int r0 = tile * kQueryTile, rows = std::min(kQueryTile, T - r0);
            const float* Q = q + tokenAt(b, T, r0, qS) + static_cast<std::size_t>(h) * hs;
            const float* K = k + tokenAt(b, T, 0, kS) + static_cast<std::size_t>(g) * hs;
            const float* V = v + tokenAt(b, T, 0, vS) + static_cast<std::size_t>(g) * hs;
            std::fill(O, O + static_cast<std::size_t>(rows) * hs, 0.0f);
            std::fill(m, m + rows, -std::numeric_limits<float>::infinity());
            std::fill(l, l + rows, 0.0f);
            forEachCausalBlock(r0, rows, [&](int i0, int n, int c0, int cols) {
                // S = scale * Q[i0:i0+n] K[c0:c0+cols]^T
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, cols, hs, scale,
                            Q + static_cast<std::size_t>(i0) * qS, qS,
                            K + static_cast<std::size_t>(c0) * kS, kS, 0.0f, S, kKeyTile);
                for (int i = 0; i < n; ++i) {
                    const float alpha =
                        onlineSoftmaxRow(S + i * kKeyTile, causalValid(r0 + i0 + i, c0, cols), cols,
                                         m[i0 + i], l[i0 + i]);
                    if (alpha != 1.0f)
                        scaleRow(O + static_cast<std::size_t>(i0 + i) * hs, alpha, hs);
                }
                // O[i0:i0+n] += P V[c0:c0+cols]
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, hs, cols, 1.0f, S,
                            kKeyTile, V + static_cast<std::size_t>(c0) * vS, vS, 1.0f,
                            O + static_cast<std::size_t>(i0) * hs, hs);
            });
            float* o = out + tokenAt(b, T, r0, oS) + static_cast<std::size_t>(h) * hs;
            float* rowLse = lse + static_cast<std::size_t>(bh) * T + r0;
            for (int i = 0; i < rows; ++i) {
                const float inv = 1.0f / l[i];
                const float* src = O + static_cast<std::size_t>(i) * hs;
                float* dst = o + static_cast<std::size_t>(i) * oS;
                for (int c = 0; c < hs; ++c)
                    dst[c] = src[c] * inv;
                rowLse[i] = m[i] + std::log(l[i]);
            }
        }
    }
}

// One task per (batch row, key/value head): it owns the rows of dk and dv of that head and
// the rows of dq of its query heads, so tasks never write the same gradient.
void CpuKernels::flashAttentionBackward(float* dq, float* dk, float* dv, float* delta,
                                        const float* dout, const float* out, const float* lse,
                                        const float* q, const float* k, const float* v,
                                        const FlashAttentionDims& d) {
    checkFlashAttentionDims("flashAttentionBackward", d);
    const int T = d.T, NH = d.NH, hs = d.hs, group = d.NH / d.NKV;
    const int qS = static_cast<int>(d.qStride), kS = static_cast<int>(d.kStride),
              vS = static_cast<int>(d.vStride), oS = NH * hs;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
    const int tasks = d.B * d.NKV;
    const int threads = std::min(m_threads, tasks);
    cpu::BlasSingleThreaded blasGuard(threads > 1 ? m_threads : 1);
#pragma omp parallel num_threads(threads)
    {
        float* P = threadScratch(backwardScratchFloats());
        float* dP = P + kQueryTile * kKeyTile;
#pragma omp for schedule(dynamic, 1)
        for (int task = 0; task < tasks; ++task) {
            const int b = task / d.NKV, g = task % d.NKV;
            const std::size_t kOff = tokenAt(b, T, 0, kS) + static_cast<std::size_t>(g) * hs;
            const std::size_t vOff = tokenAt(b, T, 0, vS) + static_cast<std::size_t>(g) * hs;
            const float* K = k + kOff;
            const float* V = v + vOff;
            float* dK = dk + kOff;
            float* dV = dv + vOff;
            for (int h = g * group; h < (g + 1) * group; ++h) {
                const std::size_t qOff = tokenAt(b, T, 0, qS) + static_cast<std::size_t>(h) * hs;
                const std::size_t oOff = tokenAt(b, T, 0, oS) + static_cast<std::size_t>(h) * hs;
                const float* Q = q + qOff;
                float* dQ = dq + qOff;
                const float* O = out + oOff;
                const float* dO = dout + oOff;
                const std::size_t row0 = (static_cast<std::size_t>(b) * NH + h) * T;
                const float* L = lse + row0;
                float* D = delta + row0;
                for (int t = 0; t < T; ++t)
                    D[t] = dot(dO + static_cast<std::size_t>(t) * oS,
                               O + static_cast<std::size_t>(t) * oS, hs);
                for (int r0 = 0; r0 < T; r0 += kQueryTile) {
                    forEachCausalBlock(
                        r0, std::min(kQueryTile, T - r0), [&](int i0, int rows, int c0, int cols) {
                            const int ri = r0 + i0; // first query row of the block
                            const float* Qi = Q + static_cast<std::size_t>(ri) * qS;
                            const float* dOi = dO + static_cast<std::size_t>(ri) * oS;
                            float* dQi = dQ + static_cast<std::size_t>(ri) * qS;
                            const float* Kj = K + static_cast<std::size_t>(c0) * kS;
                            const float* Vj = V + static_cast<std::size_t>(c0) * vS;
                            // S = scale * Qi Kj^T and dP = dOi Vj^T, then P and dS over them
                            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, cols, hs,
                                        scale, Qi, qS, Kj, kS, 0.0f, P, kKeyTile);
                            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, cols, hs,
                                        1.0f, dOi, oS, Vj, vS, 0.0f, dP, kKeyTile);
                            for (int i = 0; i < rows; ++i)
                                probabilityAndGradientRow(P + i * kKeyTile, dP + i * kKeyTile,
                                                          causalValid(ri + i, c0, cols), cols,
                                                          L[ri + i], D[ri + i]);
                            // dVj += P^T dOi
                            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, cols, hs, rows,
                                        1.0f, P, kKeyTile, dOi, oS, 1.0f,
                                        dV + static_cast<std::size_t>(c0) * vS, vS);
                            // dQi += scale * dS Kj
                            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, hs, cols,
                                        scale, dP, kKeyTile, Kj, kS, 1.0f, dQi, qS);
                            // dKj += scale * dS^T Qi
                            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, cols, hs, rows,
                                        scale, dP, kKeyTile, Qi, qS, 1.0f,
                                        dK + static_cast<std::size_t>(c0) * kS, kS);
                        });
                }
            }
        }
    }
}

} // namespace zerolab
