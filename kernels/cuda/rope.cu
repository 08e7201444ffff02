// The rotary position embedding (HF rotate_half convention, kernels/rope_math.h), in place,
// forward and backward, from the cos/sin table of kernels/rope.h. The grid walks token
// positions (x) and sequences (y), so a block knows its position without dividing a flat
// index; its threads walk the H * hs/2 pairs of the row with 32-bit arithmetic. Offsets into
// x are size_t: B*T*rowStride may exceed 2^31.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/rope.h"
#include "kernels/rope_math.h"

#include <algorithm>

namespace zerolab {

namespace {

// gridDim.y is limited to 65535; larger B wraps in the loop.
constexpr int kMaxGridY = 65535;
constexpr int kMaxGridX = 1 << 20;

template <bool Inverse>
__global__ void __launch_bounds__(cuda::kBlock)
    ropeKernel(float* x, const float* cosSin, int B, int T, int H, int hs, int rowStride) {
    const int half = hs / 2;
    const int pairs = H * half;
    for (int b = blockIdx.y; b < B; b += gridDim.y) {
        for (int t = blockIdx.x; t < T; t += gridDim.x) {
            const float* c = cosSin + static_cast<std::size_t>(t) * hs;
            const float* s = c + half;
            float* r =
                x + (static_cast<std::size_t>(b) * T + t) * static_cast<std::size_t>(rowStride);
            for (int p = threadIdx.x; p < pairs; p += blockDim.x) {
                const int h = p / half; // 32-bit, once per pair
                const int i = p - h * half;
                float* a = r + static_cast<std::size_t>(h) * hs + i;
                if constexpr (Inverse)
                    rope::unrotate(a[0], a[half], c[i], s[i]);
                else
                    rope::rotate(a[0], a[half], c[i], s[i]);
            }
        }
    }
}

template <bool Inverse>
void launchRope(cudaStream_t stream, float* x, const float* cosSin, int B, int T, int H, int hs,
                int rowStride) {
    if (B == 0 || T == 0 || H == 0)
        return;
    const dim3 grid(static_cast<unsigned>(std::min(T, kMaxGridX)),
                    static_cast<unsigned>(std::min(B, kMaxGridY)));
    ropeKernel<Inverse><<<grid, cuda::kBlock, 0, stream>>>(x, cosSin, B, T, H, hs, rowStride);
}

} // namespace

void CudaKernels::ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                              int rowStride) {
    checkRopeShape("ropeForward", B, T, H, hs, rowStride);
    launchRope<false>(m_stream, x, cosSin, B, T, H, hs, rowStride);
    ZEROLAB_CUDA_CHECK_LAUNCH("ropeKernel (forward)");
}

void CudaKernels::ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                               int rowStride) {
    checkRopeShape("ropeBackward", B, T, H, hs, rowStride);
    launchRope<true>(m_stream, dx, cosSin, B, T, H, hs, rowStride);
    ZEROLAB_CUDA_CHECK_LAUNCH("ropeKernel (backward)");
}

} // namespace zerolab
