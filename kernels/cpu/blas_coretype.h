// Which of OpenBLAS's kernels this CPU should run. OpenBLAS picks them once, when it is
// loaded, from a CPU table that predates newer models (0.3.21 runs its SSE3 "Prescott"
// kernels on Sapphire/Emerald Rapids, its AVX2 ones on Zen 4); OPENBLAS_CORETYPE overrides it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zerolab {

// The vector instructions OpenBLAS's kernel families need.
struct CpuVectorIsa {
    bool avx2_fma = false; // its Haswell kernels
    bool avx512 = false;   // its SkylakeX kernels: AVX-512 F, CD, BW, DQ and VL
};

CpuVectorIsa thisCpuIsa();

// The kernels OpenBLAS chose in this process (openblas_get_corename), e.g. "Prescott".
std::string blasCoreName();

// The OPENBLAS_CORETYPE of the best kernel family `isa` runs when OpenBLAS's own choice
// `chosen` is a weaker one; nullopt when its choice is as good (or the name is unknown).
std::optional<std::string> betterBlasCoreType(std::string_view chosen, CpuVectorIsa isa);

// At the top of main(), before any thread or MPI call: when the user set no
// OPENBLAS_CORETYPE and betterBlasCoreType names one, sets it and re-executes this program
// with the same arguments (OpenBLAS reads the variable only when it is loaded). Returns
// when there is nothing to do, or when the re-exec failed (then with a line on stderr and
// OpenBLAS's own choice kept).
void runWithBestBlasKernels(char** argv);

} // namespace zerolab
