// The CUDA backend module (libzerolab_cuda_backend.so), loaded by zerolab-train for
// run.device "cuda": the CUDA kernels with NCCL (one GPU per rank) or with MPI staged
// through host memory (several ranks per GPU), and this rank's share of the peak.
#include "kernels/cuda/cuda_kernels.h"
#include "runtime/comm/comm_nccl.h"
#include "runtime/comm/comm_staged.h"
#include "runtime/comm/gpu_choice.h"
#include "runtime/comm/visible_gpus.h"
#include "runtime/train/device_info.h"
#include "runtime/train/train_backend.h"

#include <cuda_runtime_api.h>

namespace zerolab {

namespace {

void makeCudaParts(const TrainConfig& config, Communicator& mpi, CudaBackendParts& out) {
    int devices = 0;
    const cudaError_t rc = cudaGetDeviceCount(&devices);
    // Every rank must reach the same verdict before anybody throws: one all-reduce.
    const double worst = -mpi.sumDouble(rc == cudaSuccess && devices > 0 ? 0.0 : -1.0);
    if (worst > 0) {
        const std::string why =
            rc != cudaSuccess ? "CUDA cannot start on " + mpi.host() + ": " + cudaGetErrorString(rc)
            : devices == 0    ? mpi.host() + " has no CUDA device"
                              : "CUDA cannot start on another rank's host";
        throw BackendError("run.device: \"cuda\", but " + why + " (use \"cpu\")",
                           rc != cudaSuccess || devices == 0);
    }
    // Which GPU, shared or not, from every rank's view of its GPUs (gpu_choice.h): every
    // rank comes to the same verdict, and one shared GPU sends the whole job to the staged
    // path (all ranks take part in every collective).
    const std::vector<RankGpus> all = exchangeRankGpus(
        visibleGpus(mpi.host()), mpi.size(), [&](const char* in, char* out, std::size_t n) {
            mpi.gatherBytes(in, n, out);
            mpi.broadcastBytes(out, n * static_cast<std::size_t>(mpi.size()), 0);
        });
    const GpuChoice choice = chooseGpu(all, mpi.rank());
    const bool nccl = choice.nccl;
    // bf16 runs multiply on the tensor cores (bf16 operands, fp32 accumulation).
    const bool bf16 = config.precision == Precision::Bf16Mixed;
    const MatmulMath math = bf16 ? MatmulMath::Bf16 : MatmulMath::Fp32;
    std::string path;
    if (nccl) {
        auto comm = std::make_unique<NcclCommunicator>();
        out.kernels = makeCudaKernels(comm->device(), math);
        comm->setComputeStream(static_cast<CudaKernels&>(*out.kernels).stream());
        out.comm = std::move(comm);
        path = "NCCL collectives: " + choice.reason;
    } else {
        out.kernels = makeCudaKernels(choice.device, math);
        out.comm = std::make_unique<StagedCommunicator>(mpi, *out.kernels);
        path = "MPI collectives staged through host memory, " +
               std::to_string(choice.ranks_on_device) + " ranks on this GPU: " + choice.reason;
    }
    auto& cuda = static_cast<CudaKernels&>(*out.kernels);
    const std::string name = cuda.deviceName();
    out.description = "cuda device " + std::to_string(cuda.device()) + " (" + name + "), " + path +
                      (bf16 ? ", bf16 tensor-core matmuls" : ", fp32 matmuls");
    // MFU against the peak of the arithmetic the matrix products run in.
    const auto peak = devicePeakFlops(name, bf16 ? PeakPrecision::Bf16 : PeakPrecision::Fp32);
    if (peak)
        out.peak_flops = *peak / choice.ranks_on_device;
}

} // namespace

} // namespace zerolab

// Errors become out.error: a BackendError's message (every rank fails at the same point),
// or, for anything unexpected (NCCL, CUDA), the exception's text and out.fatal (the other ranks may
// be inside a collective: the job must be aborted). Nothing is thrown across the module boundary.
extern "C" void zerolab_make_cuda_backend(const zerolab::TrainConfig& config,
                                          zerolab::Communicator& mpi,
                                          zerolab::CudaBackendParts& out) {
    try {
        zerolab::makeCudaParts(config, mpi, out);
    } catch (const zerolab::BackendError& e) {
        out.error = e.what();
        out.error_is_own = e.own();
    } catch (const std::exception& e) {
        out.error = std::string("the CUDA backend failed to start: ") + e.what();
        out.fatal = true;
    }
}
