// Backend choice for zerolab-train. The CUDA half exists where the build has CUDA
// (ZEROLAB_HAVE_CUDA); elsewhere run.device "cuda" is refused with the reason.
#include "runtime/train_backend.h"

#include "kernels/cpu/gemm_peak.h"
#include "runtime/comm_staged.h"
#include "runtime/device_info.h"
#include "runtime/local_ranks.h"

#if ZEROLAB_HAVE_CUDA
#include "kernels/cuda/cuda_kernels.h"
#include "runtime/comm_nccl.h"

#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace zerolab {

namespace {

int cpuThreads(const TrainConfig& c) {
    if (c.run.threads > 0)
        return c.run.threads;
    int local = 1;
    if (const char* s = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"))
        local = std::max(1, std::atoi(s));
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, hw / local);
}

} // namespace

TrainBackend::TrainBackend(const TrainConfig& config, Communicator& mpi) {
    if (config.run.device == Device::Cuda)
        makeCuda(config, mpi);
    else
        makeCpu(config, mpi);
}

TrainBackend::~TrainBackend() = default;

void TrainBackend::makeCpu(const TrainConfig& config, Communicator& mpi) {
    m_kernels = makeCpuKernels(cpuThreads(config));
    m_view.kernels = m_kernels.get();
    m_view.comm = &mpi;
    m_view.description =
        "cpu, " + std::to_string(m_kernels->threads()) + " threads per rank, MPI collectives";
    // The ranks share the machine's cores: each measures what it gets.
    m_view.peak_flops = measureSgemmPeakFlops(512, 0.2);
}

#if ZEROLAB_HAVE_CUDA

void TrainBackend::makeCuda(const TrainConfig& config, Communicator& mpi) {
    int devices = 0;
    const cudaError_t rc = cudaGetDeviceCount(&devices);
    // Every rank must reach the same verdict before anybody throws: one all-reduce.
    const double worst = -mpi.sumDouble(rc == cudaSuccess && devices > 0 ? 0.0 : -1.0);
    if (worst > 0)
        throw BackendError("run.device: \"cuda\", but " +
                           std::string(rc != cudaSuccess
                                           ? std::string("CUDA cannot start on ") + mpi.host() +
                                                 ": " + cudaGetErrorString(rc)
                                           : "a rank's host has no CUDA device") +
                           " (use \"cpu\")");
    const LocalPlacement place = findLocalPlacement(mpi);
    const GpuShare share = gpuShareFor(place, devices);
    // NCCL wants one GPU per rank; decided on every rank alike (any host short of GPUs
    // sends the whole job to the staged path, since all ranks take part in every collective).
    const bool ownGpu = place.local_size <= devices;
    const bool nccl = mpi.sumDouble(ownGpu ? 0.0 : 1.0) == 0.0;
    std::string path;
    if (nccl) {
        auto comm = std::make_unique<NcclCommunicator>();
        m_kernels = makeCudaKernels(comm->device());
        comm->setComputeStream(static_cast<CudaKernels&>(*m_kernels).stream());
        m_comm = std::move(comm);
        path = "NCCL collectives, one GPU per rank";
    } else {
        m_kernels = makeCudaKernels(share.device);
        m_comm = std::make_unique<StagedCommunicator>(mpi, *m_kernels);
        path = "MPI collectives staged through host memory, " +
               std::to_string(share.ranks_on_device) + " ranks on this GPU";
    }
    auto& cuda = static_cast<CudaKernels&>(*m_kernels);
    const std::string name = cuda.deviceName();
    m_view.kernels = m_kernels.get();
    m_view.comm = m_comm.get();
    m_view.description =
        "cuda device " + std::to_string(cuda.device()) + " (" + name + "), " + path;
    // The matrix products run in fp32 (no TF32) whatever the precision; MFU is quoted
    // against the precision the run trains in, as is customary (bf16 runs: the bf16 peak).
    const auto peak = devicePeakFlops(
        name, config.precision == Precision::Bf16Mixed ? PeakPrecision::Bf16 : PeakPrecision::Fp32);
    if (peak)
        m_view.peak_flops = *peak / share.ranks_on_device;
}

#else

void TrainBackend::makeCuda(const TrainConfig&, Communicator&) {
    throw BackendError("run.device: \"cuda\", but this zerolab-train was built without CUDA "
                       "(ZEROLAB_WITH_CUDA=OFF, or no nvcc and NCCL at configure time; "
                       "docs/gpu.md); use \"cpu\"");
}

#endif

} // namespace zerolab
