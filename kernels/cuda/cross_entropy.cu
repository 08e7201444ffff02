// Softmax over the real vocabulary and the cross-entropy loss, forward and
// backward. Padded logits (V..Vp) get probability 0 and no gradient. Targets are
// checked on the device before either op writes anything.
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/cuda_kernels.h"
#include "kernels/cuda/device_util.cuh"

#include <limits>
#include <string>

namespace zerolab {

namespace {

// One block per row of Vp logits: GPT-2's 50257 entries give each of 1024 threads ~50.
constexpr int kSoftmaxBlock = 1024;

// flag = the lowest position whose target is outside [0, V) (stays all-ones when none is).
__global__ void __launch_bounds__(cuda::kBlock)
    checkTargetsKernel(unsigned* flag, const int* targets, std::size_t rows, int V) {
    for (std::size_t i = cuda::globalIndex(); i < rows; i += cuda::gridStride())
        if (targets[i] < 0 || targets[i] >= V)
            atomicMin(flag, static_cast<unsigned>(i));
}

// losses[r] = log(sum) - (x[target] - max), from the logits (log-sum-exp), not from the
// rounded probability: exact for confident predictions whose probability underflows.
__global__ void __launch_bounds__(kSoftmaxBlock)
    softmaxCrossEntropyKernel(float* losses, float* probs, const float* logits, const int* targets,
                              int V, int Vp) {
    __shared__ float shared[32];
    const std::size_t r = blockIdx.x;
    const float* x = logits + r * Vp;
    float* p = probs + r * Vp;
    float maxv = -INFINITY;
    for (int j = threadIdx.x; j < V; j += blockDim.x)
        maxv = fmaxf(maxv, x[j]);
    maxv = cuda::blockMax(maxv, shared);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < V; j += blockDim.x)
        sum += expf(x[j] - maxv);
    sum = cuda::blockSum(sum, shared);
    const float inv = 1.0f / sum;
    for (int j = threadIdx.x; j < Vp; j += blockDim.x)
        p[j] = j < V ? expf(x[j] - maxv) * inv : 0.0f;
    if (threadIdx.x == 0)
        losses[r] = logf(sum) - (x[targets[r]] - maxv);
}

// dlogits[r, j] += (probs[r, j] - [j == target]) * dlosses[r] for j < V.
__global__ void __launch_bounds__(cuda::kBlock)
    crossEntropyBackwardKernel(float* dlogits, const float* dlosses, const float* probs,
                               const int* targets, std::size_t rows, int V, int Vp) {
    const std::size_t n = rows * V;
    for (std::size_t i = cuda::globalIndex(); i < n; i += cuda::gridStride()) {
        const std::size_t r = i / V;
        const int j = static_cast<int>(i % V);
        const float dl = dlosses[r];
        const std::size_t at = r * Vp + j;
        dlogits[at] += probs[at] * dl - (j == targets[r] ? dl : 0.0f);
    }
}

void checkVocabulary(const char* op, int V, int Vp) {
    if (V < 1 || V > Vp)
        throw KernelError(std::string(op) + ": vocabulary V=" + std::to_string(V) +
                          " must be in [1, Vp=" + std::to_string(Vp) + "]");
}

} // namespace

void CudaKernels::checkTargets(const char* op, const int* targets, std::size_t rows, int V) {
    ZEROLAB_CUDA_CHECK(cudaMemsetAsync(targetFlag(), 0xff, sizeof(unsigned), m_stream));
    checkTargetsKernel<<<cuda::gridFor(rows), cuda::kBlock, 0, m_stream>>>(targetFlag(), targets,
                                                                           rows, V);
    ZEROLAB_CUDA_CHECK_LAUNCH("checkTargetsKernel");
    ZEROLAB_CUDA_CHECK(cudaMemcpyAsync(hostFlag(), targetFlag(), sizeof(unsigned),
                                       cudaMemcpyDeviceToHost, m_stream));
    ZEROLAB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    const unsigned position = *hostFlag();
    if (position == std::numeric_limits<unsigned>::max())
        return;
    int target = 0;
    ZEROLAB_CUDA_CHECK(
        cudaMemcpy(&target, targets + position, sizeof(int), cudaMemcpyDeviceToHost));
    throw KernelError(std::string(op) + ": target " + std::to_string(target) + " at position " +
                      std::to_string(position) + " is outside [0, V=" + std::to_string(V) + ")");
}

void CudaKernels::softmaxCrossEntropyForward(float* losses, float* probs, const float* logits,
                                             const int* targets, int B, int T, int V, int Vp) {
    checkVocabulary("softmaxCrossEntropyForward", V, Vp);
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    if (rows == 0)
        return;
    checkTargets("softmaxCrossEntropyForward", targets, rows, V);
    const launch::Geometry g =
        launch::blockPerRow(rows, kSoftmaxBlock, "softmaxCrossEntropyKernel");
    softmaxCrossEntropyKernel<<<g.blocks, g.threads, 0, m_stream>>>(losses, probs, logits, targets,
                                                                    V, Vp);
    ZEROLAB_CUDA_CHECK_LAUNCH("softmaxCrossEntropyKernel");
}

void CudaKernels::crossEntropySoftmaxBackward(float* dlogits, const float* dlosses,
                                              const float* probs, const int* targets, int B, int T,
                                              int V, int Vp) {
    checkVocabulary("crossEntropySoftmaxBackward", V, Vp);
    const std::size_t rows = static_cast<std::size_t>(B) * T;
    if (rows == 0)
        return;
    checkTargets("crossEntropySoftmaxBackward", targets, rows, V);
    crossEntropyBackwardKernel<<<cuda::gridFor(rows * V), cuda::kBlock, 0, m_stream>>>(
        dlogits, dlosses, probs, targets, rows, V, Vp);
    ZEROLAB_CUDA_CHECK_LAUNCH("crossEntropyBackwardKernel");
}

} // namespace zerolab
