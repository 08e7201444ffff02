// Causal attention without the (T,T) matrix on the device, FlashAttention-2's algorithm
// in fp32 (the same as kernels/cpu/flash_attention.cpp): the forward runs one block per
// (query tile, head, batch row) with an online softmax over key tiles staged through
// shared memory and keeps only the output and each row's log-sum-exp; the backward
// recomputes each tile's probabilities in two kernels, one per key tile for dK and dV
// (looping over the query heads of its key/value head, so grouped-query heads never
// race) and one per query tile for dQ. No atomics: results do not depend on scheduling.
// A straightforward kernel (scalar fp32 from shared memory, no tensor cores); the point
// is the memory, O(T) per head kept instead of O(T^2).
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/launch_geometry.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace zerolab {

namespace {

// Query rows and key columns per tile: a key column per lane of a warp, so row maxima and
// sums are warp reductions; 4 warps of 8 rows each cover the 32 query rows.
constexpr int kTileRows = 32;
constexpr int kTileCols = 32;
constexpr int kThreads = 128;
constexpr int kWarps = kThreads / 32;
constexpr int kRowsPerWarp = kTileRows / kWarps;
static_assert(kTileCols == 32, "a key column per lane");
static_assert(kTileRows == kTileCols, "aligned tiles: each processed row has a key in each tile");

// Key and value tiles are read down a column by the 32 lanes (lane = key): rows padded to
// hs + 1 floats so that the lanes hit 32 different banks.
__host__ __device__ constexpr int paddedRow(int hs) {
    return hs + 1;
}

// Dynamic shared memory of each kernel, in floats.
std::size_t forwardSharedFloats(int hs) {
    // Q, O (rows x hs), K (cols x hs+1), V (cols x hs), P (rows x cols)
    return static_cast<std::size_t>(kTileRows) * hs * 2 +
           static_cast<std::size_t>(kTileCols) * (paddedRow(hs) + hs) + kTileRows * kTileCols;
}
std::size_t keyValueSharedFloats(int hs) {
    // K, V (cols x hs+1), dK, dV (cols x hs), Q, dO (rows x hs), P, dS (rows x cols), lse, D
    return static_cast<std::size_t>(kTileCols) * (2 * paddedRow(hs) + 2 * hs) +
           static_cast<std::size_t>(kTileRows) * 2 * hs + 2 * kTileRows * kTileCols + 2 * kTileRows;
}
std::size_t querySharedFloats(int hs) {
    // Q, dO, dQ (rows x hs), K, V (cols x hs+1), dS (rows x cols), lse, D
    return static_cast<std::size_t>(kTileRows) * 3 * hs +
           static_cast<std::size_t>(kTileCols) * 2 * paddedRow(hs) + kTileRows * kTileCols +
           2 * kTileRows;
}

// Token (b, t) of a tensor with `stride` elements per token, head `h` of hs channels.
__device__ inline std::size_t at(long long b, int T, long long t, long long stride, long long h,
                                 int hs) {
    return static_cast<std::size_t>((b * T + t) * stride + h * hs);
}

// Copies `rows` tokens (from token t0) of one head into shared rows of `ld` floats, zero
// past `rows` up to `tileRows`.
__device__ inline void loadTile(float* dst, int ld, const float* src, long long stride, int rows,
                                int tileRows, int hs) {
    for (int e = threadIdx.x; e < tileRows * hs; e += blockDim.x) {
        const int r = e / hs, c = e % hs;
        dst[r * ld + c] = r < rows ? src[static_cast<std::size_t>(r) * stride + c] : 0.0f;
    }
}

__device__ inline float dotShared(const float* a, const float* b, int hs) {
    float s = 0.0f;
    for (int c = 0; c < hs; ++c)
        s += a[c] * b[c];
    return s;
}

// grid (query tiles, NH, B): out rows and lse of one query tile of one head.
__global__ void __launch_bounds__(kThreads)
    flashForwardKernel(float* out, float* lse, const float* q, const float* k, const float* v,
                       FlashAttentionDims d, float scale) {
    extern __shared__ float smem[];
    const int hs = d.hs, T = d.T, ldK = paddedRow(hs);
    // Tiles in reverse so that the largest (last) query tiles start first.
    const long long tile = static_cast<long long>(gridDim.x) - 1 - blockIdx.x;
    const long long h = blockIdx.y, b = blockIdx.z, g = h / (d.NH / d.NKV);
    const int r0 = static_cast<int>(tile) * kTileRows;
    const int rows = min(kTileRows, T - r0), r1 = r0 + rows;
    float* Qs = smem;
    float* Os = Qs + kTileRows * hs;
    float* Ks = Os + kTileRows * hs;
    float* Vs = Ks + kTileCols * ldK;
    float* Ps = Vs + kTileCols * hs;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    loadTile(Qs, hs, q + at(b, T, r0, d.qStride, h, hs), d.qStride, rows, kTileRows, hs);
    for (int e = threadIdx.x; e < kTileRows * hs; e += blockDim.x)
        Os[e] = 0.0f;
    float m[kRowsPerWarp], l[kRowsPerWarp];
#pragma unroll
    for (int rr = 0; rr < kRowsPerWarp; ++rr) {
        m[rr] = -INFINITY;
        l[rr] = 0.0f;
    }
    for (int c0 = 0; c0 < r1; c0 += kTileCols) {
        const int cols = min(kTileCols, r1 - c0);
        __syncthreads(); // the previous tile's K and V are no longer read
        loadTile(Ks, ldK, k + at(b, T, c0, d.kStride, g, hs), d.kStride, cols, kTileCols, hs);
        loadTile(Vs, hs, v + at(b, T, c0, d.vStride, g, hs), d.vStride, cols, kTileCols, hs);
        __syncthreads();
        // Unrolled so that m and l stay in registers; r < rows is the same for the whole warp.
#pragma unroll
        for (int rr = 0; rr < kRowsPerWarp; ++rr) {
            const int r = warp * kRowsPerWarp + rr;
            if (r >= rows)
                continue;
            const bool valid = lane < cols && c0 + lane <= r0 + r;
            const float s = valid ? scale * dotShared(Qs + r * hs, Ks + lane * ldK, hs) : -INFINITY;
            const float mNew = fmaxf(m[rr], cuda::warpMax(s));
            const float p = valid ? expf(s - mNew) : 0.0f;
            const float alpha = m[rr] == -INFINITY ? 0.0f : expf(m[rr] - mNew);
            l[rr] = l[rr] * alpha + cuda::warpSum(p);
            m[rr] = mNew;
            Ps[r * kTileCols + lane] = p;
            __syncwarp();
            for (int c = lane; c < hs; c += 32) {
                float acc = 0.0f;
                for (int j = 0; j < cols; ++j)
                    acc += Ps[r * kTileCols + j] * Vs[j * hs + c];
                Os[r * hs + c] = Os[r * hs + c] * alpha + acc;
            }
            __syncwarp(); // P's row is rewritten on the next key tile
        }
    }
#pragma unroll
    for (int rr = 0; rr < kRowsPerWarp; ++rr) {
        const int r = warp * kRowsPerWarp + rr;
        if (r >= rows)
            continue;
        const float inv = 1.0f / l[rr];
        float* o = out + at(b, T, r0 + r, static_cast<long long>(d.NH) * hs, h, hs);
        for (int c = lane; c < hs; c += 32)
            o[c] = Os[r * hs + c] * inv;
        if (lane == 0)
            lse[static_cast<std::size_t>((b * d.NH + h) * T + r0 + r)] = m[rr] + logf(l[rr]);
    }
}

// delta(B,NH,T) = rowsum(dout * out), a warp per row.
__global__ void __launch_bounds__(cuda::kBlock)
    flashDeltaKernel(float* delta, const float* dout, const float* out, FlashAttentionDims d) {
    const std::size_t row = cuda::warpRow(); // (b*NH + h)*T + t
    const int lane = threadIdx.x % 32;
    if (row >= static_cast<std::size_t>(d.B) * d.NH * d.T)
        return;
    const long long t = static_cast<long long>(row % d.T);
    const long long bh = static_cast<long long>(row / d.T), b = bh / d.NH, h = bh % d.NH;
    const std::size_t off = at(b, d.T, t, static_cast<long long>(d.NH) * d.hs, h, d.hs);
    float s = 0.0f;
    for (int c = lane; c < d.hs; c += 32)
        s += dout[off + c] * out[off + c];
    s = cuda::warpSum(s);
    if (lane == 0)
        delta[row] = s;
}

// The probabilities p and score gradients ds of the (query tile x key tile) pair into
// Ps and dSs (rows x cols, 0 outside the causal, in-range part): lane = key column.
__device__ inline void scoreTile(float* Ps, float* dSs, const float* Qs, const float* dOs,
                                 const float* Ks, const float* Vs, const float* Ls, const float* Ds,
                                 int r0, int rows, int c0, int cols, int hs, float scale) {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, ldK = paddedRow(hs);
    for (int rr = 0; rr < kRowsPerWarp; ++rr) {
        const int r = warp * kRowsPerWarp + rr;
        const bool valid = r < rows && lane < cols && c0 + lane <= r0 + r;
        float p = 0.0f, ds = 0.0f;
        if (valid) {
            p = expf(scale * dotShared(Qs + r * hs, Ks + lane * ldK, hs) - Ls[r]);
            ds = p * (dotShared(dOs + r * hs, Vs + lane * ldK, hs) - Ds[r]);
        }
        if (Ps != nullptr)
            Ps[r * kTileCols + lane] = p;
        dSs[r * kTileCols + lane] = ds;
    }
}

// grid (key tiles, NKV, B): dK and dV of one key tile of one key/value head, summed over
// its query heads and the query tiles at or after it.
__global__ void __launch_bounds__(kThreads)
    flashKeyValueKernel(float* dk, float* dv, const float* dout, const float* lse,
                        const float* delta, const float* q, const float* k, const float* v,
                        FlashAttentionDims d, float scale) {
    extern __shared__ float smem[];
    const int hs = d.hs, T = d.T, ldK = paddedRow(hs), group = d.NH / d.NKV;
    const long long tile = static_cast<long long>(gridDim.x) - 1 - blockIdx.x;
    const long long g = blockIdx.y, b = blockIdx.z;
    const int c0 = static_cast<int>(tile) * kTileCols;
    const int cols = min(kTileCols, T - c0);
    float* Ks = smem;
    float* Vs = Ks + kTileCols * ldK;
    float* dKs = Vs + kTileCols * ldK;
    float* dVs = dKs + kTileCols * hs;
    float* Qs = dVs + kTileCols * hs;
    float* dOs = Qs + kTileRows * hs;
    float* Ps = dOs + kTileRows * hs;
    float* dSs = Ps + kTileRows * kTileCols;
    float* Ls = dSs + kTileRows * kTileCols;
    float* Ds = Ls + kTileRows;

    loadTile(Ks, ldK, k + at(b, T, c0, d.kStride, g, hs), d.kStride, cols, kTileCols, hs);
    loadTile(Vs, ldK, v + at(b, T, c0, d.vStride, g, hs), d.vStride, cols, kTileCols, hs);
    for (int e = threadIdx.x; e < kTileCols * hs; e += blockDim.x) {
        dKs[e] = 0.0f;
        dVs[e] = 0.0f;
    }
    const long long oStride = static_cast<long long>(d.NH) * hs;
    for (long long h = g * group; h < (g + 1) * group; ++h) {
        const float* L = lse + static_cast<std::size_t>((b * d.NH + h) * T);
        const float* D = delta + static_cast<std::size_t>((b * d.NH + h) * T);
        for (int r0 = c0; r0 < T; r0 += kTileRows) { // queries before c0 see none of these keys
            const int rows = min(kTileRows, T - r0);
            __syncthreads(); // the previous query tile is no longer read
            loadTile(Qs, hs, q + at(b, T, r0, d.qStride, h, hs), d.qStride, rows, kTileRows, hs);
            loadTile(dOs, hs, dout + at(b, T, r0, oStride, h, hs), oStride, rows, kTileRows, hs);
            for (int r = threadIdx.x; r < kTileRows; r += blockDim.x) {
                Ls[r] = r < rows ? L[r0 + r] : 0.0f;
                Ds[r] = r < rows ? D[r0 + r] : 0.0f;
            }
            __syncthreads();
            scoreTile(Ps, dSs, Qs, dOs, Ks, Vs, Ls, Ds, r0, rows, c0, cols, hs, scale);
            __syncthreads();
            // dV += P^T dO; dK += scale * dS^T Q (rows past `rows` hold zeros)
            for (int e = threadIdx.x; e < kTileCols * hs; e += blockDim.x) {
                const int j = e / hs, c = e % hs;
                float accV = 0.0f, accK = 0.0f;
                for (int r = 0; r < rows; ++r) {
                    accV += Ps[r * kTileCols + j] * dOs[r * hs + c];
                    accK += dSs[r * kTileCols + j] * Qs[r * hs + c];
                }
                dVs[e] += accV;
                dKs[e] += scale * accK;
            }
        }
    }
    __syncthreads();
    for (int e = threadIdx.x; e < cols * hs; e += blockDim.x) {
        const int j = e / hs, c = e % hs;
        dk[at(b, T, c0 + j, d.kStride, g, hs) + c] += dKs[e];
        dv[at(b, T, c0 + j, d.vStride, g, hs) + c] += dVs[e];
    }
}

// grid (query tiles, NH, B): dQ of one query tile of one head over its key tiles.
__global__ void __launch_bounds__(kThreads)
    flashQueryKernel(float* dq, const float* dout, const float* lse, const float* delta,
                     const float* q, const float* k, const float* v, FlashAttentionDims d,
                     float scale) {
    extern __shared__ float smem[];
    const int hs = d.hs, T = d.T, ldK = paddedRow(hs);
    const long long tile = static_cast<long long>(gridDim.x) - 1 - blockIdx.x;
    const long long h = blockIdx.y, b = blockIdx.z, g = h / (d.NH / d.NKV);
    const int r0 = static_cast<int>(tile) * kTileRows;
    const int rows = min(kTileRows, T - r0), r1 = r0 + rows;
    float* Qs = smem;
    float* dOs = Qs + kTileRows * hs;
    float* dQs = dOs + kTileRows * hs;
    float* Ks = dQs + kTileRows * hs;
    float* Vs = Ks + kTileCols * ldK;
    float* dSs = Vs + kTileCols * ldK;
    float* Ls = dSs + kTileRows * kTileCols;
    float* Ds = Ls + kTileRows;

    const long long oStride = static_cast<long long>(d.NH) * hs;
    loadTile(Qs, hs, q + at(b, T, r0, d.qStride, h, hs), d.qStride, rows, kTileRows, hs);
    loadTile(dOs, hs, dout + at(b, T, r0, oStride, h, hs), oStride, rows, kTileRows, hs);
    for (int e = threadIdx.x; e < kTileRows * hs; e += blockDim.x)
        dQs[e] = 0.0f;
    const std::size_t row0 = static_cast<std::size_t>((b * d.NH + h) * T + r0);
    for (int r = threadIdx.x; r < kTileRows; r += blockDim.x) {
        Ls[r] = r < rows ? lse[row0 + r] : 0.0f;
        Ds[r] = r < rows ? delta[row0 + r] : 0.0f;
    }
    for (int c0 = 0; c0 < r1; c0 += kTileCols) {
        const int cols = min(kTileCols, r1 - c0);
        __syncthreads(); // the previous key tile is no longer read
        loadTile(Ks, ldK, k + at(b, T, c0, d.kStride, g, hs), d.kStride, cols, kTileCols, hs);
        loadTile(Vs, ldK, v + at(b, T, c0, d.vStride, g, hs), d.vStride, cols, kTileCols, hs);
        __syncthreads();
        scoreTile(nullptr, dSs, Qs, dOs, Ks, Vs, Ls, Ds, r0, rows, c0, cols, hs, scale);
        __syncthreads();
        // dQ += scale * dS K
        for (int e = threadIdx.x; e < kTileRows * hs; e += blockDim.x) {
            const int r = e / hs, c = e % hs;
            float acc = 0.0f;
            for (int j = 0; j < cols; ++j)
                acc += dSs[r * kTileCols + j] * Ks[j * ldK + c];
            dQs[e] += scale * acc;
        }
    }
    __syncthreads();
    for (int e = threadIdx.x; e < rows * hs; e += blockDim.x) {
        const int r = e / hs, c = e % hs;
        dq[at(b, T, r0 + r, d.qStride, h, hs) + c] += dQs[e];
    }
}

// The grid of a tile kernel: x the 32-row (or 32-key) tiles, y the heads, z the batch rows
// (launch_geometry.h checks x and the block; y and z are checked here against 65535).
dim3 tileGrid(int T, int heads, int B, const char* kernel) {
    const launch::Geometry x = launch::checked(
        (static_cast<std::uint64_t>(T) + kTileRows - 1) / kTileRows, kThreads, kernel);
    constexpr int kMaxGridYZ = 65535;
    if (heads > kMaxGridYZ || B > kMaxGridYZ)
        throw KernelError(std::string(kernel) + ": launch of " + std::to_string(heads) +
                          " heads x " + std::to_string(B) +
                          " batch rows (gridDim.y and .z must be at most 65535)");
    return dim3(x.blocks, static_cast<unsigned>(heads), static_cast<unsigned>(B));
}

// Checks that `floats` of dynamic shared memory fit a block on `device` and lets `kernel`
// use them (above 48 KiB a kernel must opt in); throws KernelError naming hs otherwise.
template <typename Kernel>
std::size_t sharedBytesFor(const char* op, Kernel kernel, std::size_t floats, int hs, int device) {
    const std::size_t bytes = floats * sizeof(float);
    int optin = 0;
    ZEROLAB_CUDA_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (bytes > static_cast<std::size_t>(optin))
        throw KernelError(std::string(op) + ": head size hs=" + std::to_string(hs) + " needs " +
                          std::to_string(bytes) + " bytes of shared memory per block, device " +
                          std::to_string(device) + " allows " + std::to_string(optin));
    ZEROLAB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
    return bytes;
}

} // namespace

void CudaKernels::flashAttentionForward(float* out, float* lse, const float* q, const float* k,
                                        const float* v, const FlashAttentionDims& d) {
    checkFlashAttentionDims("flashAttentionForward", d);
    const std::size_t shared = sharedBytesFor("flashAttentionForward", flashForwardKernel,
                                              forwardSharedFloats(d.hs), d.hs, m_device);
    const float scale = 1.0f / std::sqrt(static_cast<float>(d.hs));
    const dim3 grid = tileGrid(d.T, d.NH, d.B, "flashForwardKernel");
    flashForwardKernel<<<grid, kThreads, shared, m_stream>>>(out, lse, q, k, v, d, scale);
    ZEROLAB_CUDA_CHECK_LAUNCH("flashForwardKernel");
}

void CudaKernels::flashAttentionBackward(float* dq, float* dk, float* dv, float* delta,
                                         const float* dout, const float* out, const float* lse,
                                         const float* q, const float* k, const float* v,
                                         const FlashAttentionDims& d) {
    checkFlashAttentionDims("flashAttentionBackward", d);
    const float scale = 1.0f / std::sqrt(static_cast<float>(d.hs));
    const launch::Geometry rows = launch::warpPerRow(d.rowCount(), "flashDeltaKernel");
    flashDeltaKernel<<<rows.blocks, rows.threads, 0, m_stream>>>(delta, dout, out, d);
    ZEROLAB_CUDA_CHECK_LAUNCH("flashDeltaKernel");

    const std::size_t kvShared = sharedBytesFor("flashAttentionBackward", flashKeyValueKernel,
                                                keyValueSharedFloats(d.hs), d.hs, m_device);
    const dim3 kvGrid = tileGrid(d.T, d.NKV, d.B, "flashKeyValueKernel");
    flashKeyValueKernel<<<kvGrid, kThreads, kvShared, m_stream>>>(dk, dv, dout, lse, delta, q, k, v,
                                                                  d, scale);
    ZEROLAB_CUDA_CHECK_LAUNCH("flashKeyValueKernel");

    const std::size_t qShared = sharedBytesFor("flashAttentionBackward", flashQueryKernel,
                                               querySharedFloats(d.hs), d.hs, m_device);
    const dim3 qGrid = tileGrid(d.T, d.NH, d.B, "flashQueryKernel");
    flashQueryKernel<<<qGrid, kThreads, qShared, m_stream>>>(dq, dout, lse, delta, q, k, v, d,
                                                             scale);
    ZEROLAB_CUDA_CHECK_LAUNCH("flashQueryKernel");
}

} // namespace zerolab
