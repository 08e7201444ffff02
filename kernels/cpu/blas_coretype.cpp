// Choosing OpenBLAS's kernel family for this CPU (blas_coretype.h).
#include "kernels/cpu/blas_coretype.h"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace zerolab {

namespace {

// 2: AVX-512 kernels, 1: AVX2 + FMA kernels, 0: older ones; -1: a name not listed here.
int familyLevel(std::string_view name) {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* s : {"skylakex", "cooperlake", "sapphirerapids"})
        if (n == s)
            return 2;
    for (const char* s : {"haswell", "zen", "skylake", "excavator"})
        if (n == s)
            return 1;
    for (const char* s : {"prescott",  "core2",       "penryn",       "dunnington", "nehalem",
                          "atom",      "sandybridge", "katmai",       "coppermine", "northwood",
                          "banias",    "opteron",     "opteron_sse3", "barcelona",  "bobcat",
                          "bulldozer", "piledriver",  "steamroller",  "nano",       "generic"})
        if (n == s)
            return 0;
    return -1;
}

} // namespace

CpuVectorIsa thisCpuIsa() {
    __builtin_cpu_init();
    CpuVectorIsa isa;
    isa.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    isa.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512vl");
    return isa;
}

std::string blasCoreName() {
    const char* n = openblas_get_corename();
    return n ? n : "";
}

std::optional<std::string> betterBlasCoreType(std::string_view chosen, CpuVectorIsa isa) {
    const int have = familyLevel(chosen);
    if (have < 0)
        return std::nullopt;
    if (isa.avx512 && have < 2)
        return "SkylakeX";
    if (isa.avx2_fma && have < 1)
        return "Haswell";
    return std::nullopt;
}

void runWithBestBlasKernels(char** argv) {
    const char* set = std::getenv("OPENBLAS_CORETYPE");
    if (set != nullptr && *set != '\0')
        return;
    const std::optional<std::string> better = betterBlasCoreType(blasCoreName(), thisCpuIsa());
    if (!better)
        return;
    ::setenv("OPENBLAS_CORETYPE", better->c_str(), 1);
    std::fflush(nullptr);
    ::execv("/proc/self/exe", argv);
    const int err = errno;
    ::unsetenv("OPENBLAS_CORETYPE");
    std::fprintf(stderr,
                 "%s: could not restart with OPENBLAS_CORETYPE=%s (%s); OpenBLAS keeps its %s "
                 "kernels\n",
                 argv[0], better->c_str(), std::strerror(err), blasCoreName().c_str());
}

} // namespace zerolab
