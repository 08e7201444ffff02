// The rotary position embedding (HF rotate_half convention, kernels/rope_math.h), in place,
// forward and backward, from the cos/sin table of kernels/rope.h. One block per token row
// (launch::blockPerRow): the row's position is one 64-bit remainder per block, and its
// threads walk the H * hs/2 pairs of the row with 32-bit arithmetic. Offsets into x are
// size_t: B*T*rowStride may exceed 2^31.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"
#include "kernels/launch_geometry.h"
#include "kernels/rope.h"
#include "kernels/rope_math.h"

#include <cstdint>

namespace zerolab {

namespace {

template <bool Inverse>
__global__ void __launch_bounds__(cuda::kBlock)
    ropeKernel(float* x, const float* cosSin, int T, int H, int hs, int rowStride) {
    const std::size_t row = blockIdx.x; // b*T + t
    const int t = static_cast<int>(row % static_cast<std::size_t>(T));
    const int half = hs / 2;
    const int pairs = H * half;
    const float* c = cosSin + static_cast<std::size_t>(t) * hs;
    const float* s = c + half;
    float* r = x + row * static_cast<std::size_t>(rowStride);
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

} // namespace

void CudaKernels::ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                              int rowStride) {
    checkRopeShape("ropeForward", B, T, H, hs, rowStride);
    if (B == 0 || T == 0 || H == 0)
        return;
    const launch::Geometry g =
        launch::blockPerRow(static_cast<std::uint64_t>(B) * static_cast<std::uint64_t>(T),
                            cuda::kBlock, "ropeKernel (forward)");
    ropeKernel<false><<<g.blocks, g.threads, 0, m_stream>>>(x, cosSin, T, H, hs, rowStride);
    ZEROLAB_CUDA_CHECK_LAUNCH("ropeKernel (forward)");
}

void CudaKernels::ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                               int rowStride) {
    checkRopeShape("ropeBackward", B, T, H, hs, rowStride);
    if (B == 0 || T == 0 || H == 0)
        return;
    const launch::Geometry g =
        launch::blockPerRow(static_cast<std::uint64_t>(B) * static_cast<std::uint64_t>(T),
                            cuda::kBlock, "ropeKernel (backward)");
    ropeKernel<true><<<g.blocks, g.threads, 0, m_stream>>>(dx, cosSin, T, H, hs, rowStride);
    ZEROLAB_CUDA_CHECK_LAUNCH("ropeKernel (backward)");
}

} // namespace zerolab
