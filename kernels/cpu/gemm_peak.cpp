// A GEMM probe: best-of-several timed sgemm calls on warm buffers.
#include "kernels/cpu/gemm_peak.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace zerolab {

double measureSgemmPeakFlops(int n, double seconds) {
    std::vector<float> a(static_cast<std::size_t>(n) * n, 0.5f), b(a.size(), 0.25f), c(a.size());
    using Clock = std::chrono::steady_clock;
    const double flops = 2.0 * n * n * n;
    double best = 0.0;
    const auto start = Clock::now();
    int iters = 0;
    while (iters < 3 || std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
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

} // namespace zerolab
