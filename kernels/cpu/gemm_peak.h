// Measures this machine's sgemm throughput, the "peak" that CPU MFU is quoted
// against (docs/architecture.md, Measurement definitions).
#pragma once

namespace zerolab {

// Runs square sgemms of sizes n/2, 3n/4 and n with the current BLAS thread count for
// about `seconds` in all (at least a dozen calls each) and returns the best FLOP/s.
double measureSgemmPeakFlops(int n = 1024, double seconds = 0.3);

} // namespace zerolab
