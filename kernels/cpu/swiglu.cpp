// SwiGLU's gate, out = silu(gate) * up (kernels/swiglu_math.h), forward and backward.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/fast_math.h"
#include "kernels/swiglu_math.h"

namespace zerolab {

namespace {

ZEROLAB_CPU_CLONES void swigluForwardRange(float* out, const float* gate, const float* up,
                                           std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float g = gate[i];
        out[i] = swiglu::silu(g, cpu::expApprox(swiglu::negG(g))) * up[i];
    }
}

ZEROLAB_CPU_CLONES void swigluBackwardRange(float* dgate, float* dup, const float* dout,
                                            const float* gate, const float* up, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float g = gate[i];
        const float e = cpu::expApprox(swiglu::negG(g));
        const float d = dout[i];
        dgate[i] += d * up[i] * swiglu::siluDerivative(g, e);
        dup[i] += d * swiglu::silu(g, e);
    }
}

} // namespace

void CpuKernels::swigluForward(float* out, const float* gate, const float* up, std::size_t n) {
#pragma omp parallel num_threads(loopThreads(n))
    {
        const auto [begin, end] = cpu::threadRange(n);
        swigluForwardRange(out + begin, gate + begin, up + begin, end - begin);
    }
}

void CpuKernels::swigluBackward(float* dgate, float* dup, const float* dout, const float* gate,
                                const float* up, std::size_t n) {
#pragma omp parallel num_threads(loopThreads(n))
    {
        const auto [begin, end] = cpu::threadRange(n);
        swigluBackwardRange(dgate + begin, dup + begin, dout + begin, gate + begin, up + begin,
                            end - begin);
    }
}

} // namespace zerolab
