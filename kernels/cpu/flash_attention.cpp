// Causal attention without the (T,T) matrix, FlashAttention-2's algorithm on the CPU:
// per query tile, an online softmax over key tiles (running row max m and sum l, the
// output rescaled by exp(m_old - m_new) as the max grows); the forward keeps only the
// output and each row's log-sum-exp, and the backward recomputes every tile's
// probabilities from them. Tile products are this file's register-blocked kernel on
// strided views of q, k, v (grouped-query heads read their key/value head in place; only
// K and V chunks are copied, transposed, for the products that read them as K^T, V^T),
// skipping the masked part of the diagonal 6 rows at a time; the row passes are vectorised
// loops, and the (64 x 256) tiles live in per-thread buffers that stay in cache.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/fast_math.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace zerolab {

namespace {

// Query rows x key columns per tile. The tile products are this file's own register-
// blocked kernel (tileProduct below) rather than sgemm: at these sizes (64 x 256 x hs
// and smaller) OpenBLAS' per-call packing and dispatch cost as much as the arithmetic
// (a 16 x 16 x 64 sgemm ran at 24 GFLOP/s, a 64 x 192 x 64 one at 49, on a core whose
// sgemm peak is ~100), and an sgemm cannot skip the masked half of the diagonal, which
// the kernel does in 6-row steps. A 64 x 256 tile is 64 KiB per buffer: still in L2, and
// the same for any T.
constexpr int kQueryTile = 64;
constexpr int kKeyTile = 256;
static_assert(kKeyTile % kQueryTile == 0, "a key chunk never starts inside a query tile");
// The row length of the tile buffers (S, P, dP, K^T, V^T): 16 floats past the tile, so
// that consecutive rows, which the products read down a column, do not fall in the same
// few L1 sets (rows 1 KiB apart share 4 of its 64 sets: 64 rows thrash its 8 ways).
constexpr int kTileLd = kKeyTile + 16;

// Number of keys of a tile at or before query row `row` (causal), in [0, cols].
int causalValid(int row, int c0, int cols) {
    return std::clamp(row - c0 + 1, 0, cols);
}

// ---- the tile product ----

// Eight floats in one AVX register (two SSE ones in the baseline clone); F8u the same at
// any float's address, allowed to alias floats, so that at(p) is an unaligned load or store
// of p[0..8) (by reference: a vector passed by value would change the baseline's ABI).
typedef float F8 __attribute__((vector_size(32)));
typedef float F8u __attribute__((vector_size(32), aligned(4), may_alias));
inline const F8u& at(const float* p) {
    return *reinterpret_cast<const F8u*>(p);
}
inline F8u& at(float* p) {
    return *reinterpret_cast<F8u*>(p);
}

// A product's operands and the causal limits of its row blocks, in the kernel's frame:
// C[i][j] (+)= alpha * sum_p A(i, p) B[p][j], A(i, p) = a[i * aRow + p * aCol] (A or its
// transpose), B row-major with ldb, C row-major with ldc. Causality lets a block of rows
// [i, i + mr) stop early: it needs columns j < i + mr + colShift, and reduction indices
// p in [i + kBeginShift, i + mr + kEndShift). kNoLimit disables a limit.
constexpr int kNoLimit = 1 << 29;
struct TileProduct {
    int m = 0, n = 0, k = 0;
    float alpha = 1.0f;
    const float* a = nullptr;
    long long aRow = 0, aCol = 0;
    const float* b = nullptr;
    long long ldb = 0;
    float* c = nullptr;
    long long ldc = 0;
    bool accumulate = false; // C += (else C =, and columns past the causal limit unwritten)
    int colShift = kNoLimit;
    int kBeginShift = -kNoLimit;
    int kEndShift = kNoLimit;
    // Scratch of k x n floats, or nullptr: B's whole 16-column blocks are copied there
    // first, each block's k rows of 16 back to back (BLAS' packing), when B's rows are
    // strided q, k, v rows, whose column of one block falls in a few L1 sets.
    float* packed = nullptr;
};

// MR rows x 16 columns of C at (i, j), reduction p in [p0, p1): 2 MR accumulators of 8,
// held in registers (MR = 6: 12 of the 16 AVX registers), B read once per p for all rows.
// b: B's column j, its rows ldb apart.
template <int MR>
[[gnu::always_inline]] inline void tileBlock16(const TileProduct& t, int i, int j, int p0, int p1,
                                               const float* b, long long ldb) {
    F8 acc[MR][2] = {};
    const float* a = t.a + i * t.aRow;
    for (int p = p0; p < p1; ++p) {
        const float* bp = b + p * ldb;
        const F8 b0 = at(bp), b1 = at(bp + 8);
        for (int r = 0; r < MR; ++r) {
            const float x = a[r * t.aRow + p * t.aCol];
            acc[r][0] += x * b0;
            acc[r][1] += x * b1;
        }
    }
    for (int r = 0; r < MR; ++r) {
        float* cp = t.c + (i + r) * t.ldc + j;
        const F8 c0 = t.alpha * acc[r][0], c1 = t.alpha * acc[r][1];
        at(cp) = t.accumulate ? at(cp) + c0 : c0;
        at(cp + 8) = t.accumulate ? at(cp + 8) + c1 : c1;
    }
}

// The same, 8 columns (half the accumulators).
template <int MR>
[[gnu::always_inline]] inline void tileBlock8(const TileProduct& t, int i, int j, int p0, int p1) {
    F8 acc[MR] = {};
    const float* a = t.a + i * t.aRow;
    for (int p = p0; p < p1; ++p) {
        const F8 b0 = at(t.b + p * t.ldb + j);
        for (int r = 0; r < MR; ++r)
            acc[r] += a[r * t.aRow + p * t.aCol] * b0;
    }
    for (int r = 0; r < MR; ++r) {
        float* cp = t.c + (i + r) * t.ldc + j;
        const F8 c0 = t.alpha * acc[r];
        at(cp) = t.accumulate ? at(cp) + c0 : c0;
    }
}

// The same for up to 6 rows and fewer than 8 columns (the ragged right edge when T or hs
// is not a multiple of 8), element by element.
[[gnu::always_inline]] inline void tileBlockEdge(const TileProduct& t, int i, int mr, int j, int nr,
                                                 int p0, int p1) {
    for (int r = 0; r < mr; ++r) {
        const float* a = t.a + (i + r) * t.aRow;
        float* cp = t.c + (i + r) * t.ldc + j;
        for (int jj = 0; jj < nr; ++jj) {
            float sum = 0.0f;
            for (int p = p0; p < p1; ++p)
                sum += a[p * t.aCol] * t.b[p * t.ldb + j + jj];
            cp[jj] = t.accumulate ? cp[jj] + t.alpha * sum : t.alpha * sum;
        }
    }
}

template <int MR> [[gnu::always_inline]] inline void tileRows(const TileProduct& t, int i, int mr) {
    // The causal column limit rounded up to whole 16-column blocks (the extra entries are
    // past every row's valid keys, which the row passes ignore), within n.
    const int causalEnd = std::clamp(i + mr + t.colShift, 0, t.n);
    const int nEnd = std::min(t.n, (causalEnd + 15) / 16 * 16);
    const int p0 = std::clamp(i + t.kBeginShift, 0, t.k);
    const int p1 = std::clamp(i + mr + t.kEndShift, p0, t.k);
    int j = 0;
    for (; j + 16 <= nEnd; j += 16) {
        if (t.packed)
            tileBlock16<MR>(t, i, j, p0, p1, t.packed + static_cast<std::size_t>(j) * t.k, 16);
        else
            tileBlock16<MR>(t, i, j, p0, p1, t.b + j, t.ldb);
    }
    if (j + 8 <= nEnd) {
        tileBlock8<MR>(t, i, j, p0, p1);
        j += 8;
    }
    if (j < nEnd)
        tileBlockEdge(t, i, mr, j, nEnd - j, p0, p1);
}

ZEROLAB_CPU_CLONES void tileProduct(const TileProduct& t) {
    if (t.packed)
        for (int j = 0; j + 16 <= t.n; j += 16) {
            float* panel = t.packed + static_cast<std::size_t>(j) * t.k;
            for (int p = 0; p < t.k; ++p)
                for (int jj = 0; jj < 16; ++jj)
                    panel[p * 16 + jj] = t.b[p * t.ldb + j + jj];
        }
    int i = 0;
    for (; i + 6 <= t.m; i += 6)
        tileRows<6>(t, i, 6);
    switch (t.m - i) {
    case 5:
        tileRows<5>(t, i, 5);
        break;
    case 4:
        tileRows<4>(t, i, 4);
        break;
    case 3:
        tileRows<3>(t, i, 3);
        break;
    case 2:
        tileRows<2>(t, i, 2);
        break;
    case 1:
        tileRows<1>(t, i, 1);
        break;
    default:
        break;
    }
}

// dst[p][j] = src[j * stride + p] for j < cols, p < hs: a key (or value) chunk transposed
// into hs rows of ld floats, so that S = Q K^T reads B = K^T row by row. In blocks of 16
// keys, each destination row written 16 floats at a time: writing one key's hs values down
// a column (stores ld floats apart, 4 KiB-aliased) took as long as a tile product.
ZEROLAB_CPU_CLONES void transposeChunk(float* dst, int ld, const float* src, long long stride,
                                       int cols, int hs) {
    constexpr int kBlock = 16;
    int j0 = 0;
    for (; j0 + kBlock <= cols; j0 += kBlock) {
        const float* block = src + j0 * stride;
        for (int p = 0; p < hs; ++p) {
            float* d = dst + p * ld + j0;
            for (int j = 0; j < kBlock; ++j)
                d[j] = block[j * stride + p];
        }
    }
    for (int p = 0; p < hs; ++p)
        for (int j = j0; j < cols; ++j)
            dst[p * ld + j] = src[j * stride + p];
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
// output (Br x hs), the running max and sum (Br each), K^T (hs x Bc) and the packed B of
// P V (Bc x hs).
std::size_t forwardScratchFloats(int hs) {
    return static_cast<std::size_t>(kQueryTile) * (kTileLd + hs + 2) +
           static_cast<std::size_t>(hs) * (kTileLd + kKeyTile);
}

// ... of the backward: probabilities and their gradient (Br x Bc each), K^T and V^T
// (hs x Bc each), and the packed B of the gradient products (at most Bc x hs).
std::size_t backwardScratchFloats(int hs) {
    return 2 * static_cast<std::size_t>(kQueryTile) * kTileLd +
           static_cast<std::size_t>(hs) * (2 * kTileLd + kKeyTile);
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
#pragma omp parallel num_threads(threads)
    {
        float* S = threadScratch(forwardScratchFloats(hs));
        float* O = S + kQueryTile * kTileLd;
        float* m = O + static_cast<std::size_t>(kQueryTile) * hs;
        float* l = m + kQueryTile;
        float* KT = l + kQueryTile;
        float* panel = KT + static_cast<std::size_t>(hs) * kTileLd;
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
            for (int c0 = 0; c0 < r0 + rows; c0 += kKeyTile) {
                const int cols = std::min(kKeyTile, r0 + rows - c0);
                transposeChunk(KT, kTileLd, K + static_cast<std::size_t>(c0) * kS, kS, cols, hs);
                // S = scale * Q K[c0:c0+cols]^T; row i needs the keys up to r0 + i only.
                TileProduct scores{rows, cols, hs, scale, Q, qS, 1, KT, kTileLd, S, kTileLd};
                scores.colShift = r0 - c0;
                tileProduct(scores);
                for (int i = 0; i < rows; ++i) {
                    const float alpha = onlineSoftmaxRow(
                        S + i * kTileLd, causalValid(r0 + i, c0, cols), cols, m[i], l[i]);
                    if (alpha != 1.0f)
                        scaleRow(O + static_cast<std::size_t>(i) * hs, alpha, hs);
                }
                // O += P V[c0:c0+cols], over the same causal keys.
                TileProduct pv{rows, hs,      cols, 1.0f,
                               S,    kTileLd, 1,    V + static_cast<std::size_t>(c0) * vS,
                               vS,   O,       hs,   true};
                pv.kEndShift = r0 - c0;
                pv.packed = panel;
                tileProduct(pv);
            }
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
#pragma omp parallel num_threads(threads)
    {
        float* P = threadScratch(backwardScratchFloats(hs));
        float* dP = P + kQueryTile * kTileLd;
        float* KT = dP + kQueryTile * kTileLd;
        float* VT = KT + static_cast<std::size_t>(hs) * kTileLd;
        float* panel = VT + static_cast<std::size_t>(hs) * kTileLd;
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
                // Key chunks outside, query tiles inside: each chunk is transposed once
                // per head, and every tile at or after it reads a prefix of it.
                for (int c0 = 0; c0 < T; c0 += kKeyTile) {
                    const float* Kj = K + static_cast<std::size_t>(c0) * kS;
                    const float* Vj = V + static_cast<std::size_t>(c0) * vS;
                    const int chunk = std::min(kKeyTile, T - c0);
                    transposeChunk(KT, kTileLd, Kj, kS, chunk, hs);
                    transposeChunk(VT, kTileLd, Vj, vS, chunk, hs);
                    for (int r0 = c0; r0 < T; r0 += kQueryTile) {
                        const int rows = std::min(kQueryTile, T - r0);
                        const int cols = std::min(chunk, r0 + rows - c0);
                        const float* Qi = Q + static_cast<std::size_t>(r0) * qS;
                        const float* dOi = dO + static_cast<std::size_t>(r0) * oS;
                        float* dQi = dQ + static_cast<std::size_t>(r0) * qS;
                        // S = scale * Qi Kj^T and dP = dOi Vj^T (row i: keys up to r0 + i),
                        // then P and dS over them.
                        TileProduct scores{rows, cols, hs,      scale, Qi,     qS,
                                           1,    KT,   kTileLd, P,     kTileLd};
                        scores.colShift = r0 - c0;
                        tileProduct(scores);
                        TileProduct dprobs{rows, cols, hs,      1.0f, dOi,    oS,
                                           1,    VT,   kTileLd, dP,   kTileLd};
                        dprobs.colShift = r0 - c0;
                        tileProduct(dprobs);
                        for (int i = 0; i < rows; ++i)
                            probabilityAndGradientRow(P + i * kTileLd, dP + i * kTileLd,
                                                      causalValid(r0 + i, c0, cols), cols,
                                                      L[r0 + i], D[r0 + i]);
                        // dVj += P^T dOi and dKj += scale * dS^T Qi: key j takes the query
                        // rows from c0 + j - r0 on; dQi += scale * dS Kj: row i the keys up
                        // to r0 + i.
                        TileProduct dvals{
                            cols, hs,      rows, 1.0f, P,
                            1,    kTileLd, dOi,  oS,   dV + static_cast<std::size_t>(c0) * vS,
                            vS,   true};
                        dvals.kBeginShift = c0 - r0;
                        dvals.packed = panel;
                        tileProduct(dvals);
                        TileProduct dkeys{
                            cols, hs,      rows, scale, dP,
                            1,    kTileLd, Qi,   qS,    dK + static_cast<std::size_t>(c0) * kS,
                            kS,   true};
                        dkeys.kBeginShift = c0 - r0;
                        dkeys.packed = panel;
                        tileProduct(dkeys);
                        TileProduct dqueries{rows, hs, cols, scale, dP, kTileLd,
                                             1,    Kj, kS,   dQi,   qS, true};
                        dqueries.kEndShift = r0 - c0;
                        dqueries.packed = panel;
                        tileProduct(dqueries);
                    }
                }
            }
        }
    }
}

} // namespace zerolab
