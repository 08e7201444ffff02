// Softmax over the real vocabulary and the cross-entropy loss, forward and
// backward. Padded logits (V..Vp) get probability 0 and no gradient.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/fast_math.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace zerolab {

namespace {

void checkTargets(const char* op, const int* targets, std::size_t rows, int V, int Vp) {
    if (V < 1 || V > Vp)
        throw KernelError(std::string(op) + ": vocabulary V=" + std::to_string(V) +
                          " must be in [1, Vp=" + std::to_string(Vp) + "]");
    for (std::size_t i = 0; i < rows; ++i)
        if (targets[i] < 0 || targets[i] >= V)
            throw KernelError(std::string(op) + ": target " + std::to_string(targets[i]) +
                              " at position " + std::to_string(i) +
                              " is outside [0, V=" + std::to_string(V) + ")");
}

} // namespace

void CpuKernels::softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                            const int* targets, int B, int T, int V, int Vp) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    checkTargets("softmaxCrossEntropyForward", targets, rows, V, Vp);
#pragma omp parallel for num_threads(loopThreads(rows* Vp)) schedule(static)
    for (std::size_t r = 0; r < rows; ++r) {
        const float* x = logits + r * Vp;
        float* p = probs + r * Vp;
        float maxv = x[0];
        for (int j = 1; j < V; ++j)
            maxv = std::max(maxv, x[j]);
        float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
        for (int j = 0; j < V; ++j) {
            const float e = cpu::expApprox(x[j] - maxv);
            p[j] = e;
            sum += e;
        }
        const float inv = 1.0f / sum;
#pragma omp simd
        for (int j = 0; j < V; ++j)
            p[j] *= inv;
        std::fill(p + V, p + Vp, 0.0f);
        // -log p[target] from the logits (log-sum-exp), not from the rounded probability:
        // exact for confident predictions whose probability underflows.
        losses[r] = std::log(sum) - (x[targets[r]] - maxv);
    }
}

void CpuKernels::crossEntropySoftmaxBackward(float* dlogits, const float* dlosses,
                                             const float* probs, const int* targets, int B, int T,
                                             int V, int Vp) {
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    checkTargets("crossEntropySoftmaxBackward", targets, rows, V, Vp);
#pragma omp parallel for num_threads(loopThreads(rows* Vp)) schedule(static)
    for (std::size_t r = 0; r < rows; ++r) {
        const float* p = probs + r * Vp;
        float* d = dlogits + r * Vp;
        const float dl = dlosses[r];
#pragma omp simd
        for (int j = 0; j < V; ++j)
            d[j] += p[j] * dl;
        d[targets[r]] -= dl;
    }
}

} // namespace zerolab
