// A GEMM probe: best-of-many timed sgemm calls on warm buffers, over several sizes.
#include "kernels/cpu/gemm_peak.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace zerolab {

namespace {

// Best FLOP/s of square n x n sgemms run for about `seconds`, and at least kMinCalls
// timed calls so that a loaded machine still gets chances at an undisturbed one.
constexpr int kMinCalls = 12;

double bestAtSize(int n, double seconds) {
    std::vector<float> a(static_cast<std::size_t>(n) * n, 0.5f), b(a.size(), 0.25f), c(a.size());
    using Clock = std::chrono::steady_clock;
    const double flops = 2.0 * n * n * n;
    double best = 0.0;
    const auto start = Clock::now();
    int iters = 0;
    while (iters <= kMinCalls ||
           std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
        const auto t0 = Clock::now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                    n, 0.0f, c.data(), n);
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (iters > 0) // the first call pays for thread start-up and page faults
            best = std::max(best, flops / dt);
        ++iters;
    }
    return best;
}

} // namespace

// Why several sizes: one large size is not a sound peak. At n = 1024 (12 MB of operands)
// two ranks probing at once on this 2-core EPYC read 48 GFLOP/s each, while n = 384..512
// read 137 each, the rate the model's own sgemms reach (docs/performance.md); below
// n = 256 the calls are too short to reach it. Sizes n/2, 3n/4 and n share the time; the
// best of all is the peak.
double measureSgemmPeakFlops(int n, double seconds) {
    double best = 0.0;
    for (int k = 2; k <= 4; ++k)
        best = std::max(best, bestAtSize(std::max(16, n * k / 4), seconds / 3));
    return best;
}

} // namespace zerolab
