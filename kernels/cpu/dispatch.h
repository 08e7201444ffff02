// Run-time ISA dispatch and thread ranges for the element-wise hot loops.
// ZEROLAB_CPU_CLONES compiles a function twice, for x86-64-v3 (AVX2 + FMA) and
// for the baseline, and picks one at load time: no -march in the build, yet
// 8-wide vectors where the CPU has them.
#pragma once

#include <omp.h>

#include <cstddef>
#include <utility>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ZEROLAB_CPU_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ZEROLAB_CPU_CLONES
#endif

namespace zerolab::cpu {

// The [begin, end) slice of n elements that the calling OpenMP thread owns.
inline std::pair<std::size_t, std::size_t> threadRange(std::size_t n) {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t nt = static_cast<std::size_t>(omp_get_num_threads());
    return {n * t / nt, n * (t + 1) / nt};
}

} // namespace zerolab::cpu
