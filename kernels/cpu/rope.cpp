// The rotary position embedding (HF rotate_half convention), in place, forward and
// backward, from the cos/sin table of kernels/rope.h.
#include "kernels/rope.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/rope_math.h"

namespace zerolab {

namespace {

// Rotates (or, with Inverse, un-rotates) every head of every token row. Threads split the
// rows; within a head the pair loop is independent and vectorises.
template <bool Inverse>
void ropeApply(float* x, const float* cosSin, int B, int T, int H, int hs, int rowStride,
               int threads) {
    const int half = hs / 2;
    const long long rows = static_cast<long long>(B) * T;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long row = 0; row < rows; ++row) {
        const int t = static_cast<int>(row % T);
        const float* c = cosSin + static_cast<std::size_t>(t) * hs;
        const float* s = c + half;
        float* r = x + static_cast<std::size_t>(row) * rowStride;
        for (int h = 0; h < H; ++h) {
            float* a = r + static_cast<std::size_t>(h) * hs;
            float* b = a + half;
#pragma omp simd
            for (int i = 0; i < half; ++i) {
                if constexpr (Inverse)
                    rope::unrotate(a[i], b[i], c[i], s[i]);
                else
                    rope::rotate(a[i], b[i], c[i], s[i]);
            }
        }
    }
}

} // namespace

void CpuKernels::ropeForward(float* x, const float* cosSin, int B, int T, int H, int hs,
                             int rowStride) {
    checkRopeShape("ropeForward", B, T, H, hs, rowStride);
    const std::size_t total = static_cast<std::size_t>(B) * T * H * hs;
    ropeApply<false>(x, cosSin, B, T, H, hs, rowStride, loopThreads(total));
}

void CpuKernels::ropeBackward(float* dx, const float* cosSin, int B, int T, int H, int hs,
                              int rowStride) {
    checkRopeShape("ropeBackward", B, T, H, hs, rowStride);
    const std::size_t total = static_cast<std::size_t>(B) * T * H * hs;
    ropeApply<true>(dx, cosSin, B, T, H, hs, rowStride, loopThreads(total));
}

} // namespace zerolab
