// Backend choice for zerolab-train. The CUDA half (train_backend_cuda.cpp) is a module
// built where the build has CUDA; elsewhere run.device "cuda" is refused with the reason.
#include "runtime/train/train_backend.h"

#include "kernels/cpu/blas_coretype.h"
#include "kernels/cpu/gemm_peak.h"
#include "runtime/config/cpu_threads.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>

namespace zerolab {

namespace {

int cpuThreads(const TrainConfig& c) {
    if (c.run.threads > 0)
        return c.run.threads;
    int local = 1;
    if (const char* s = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"))
        local = std::max(1, std::atoi(s));
    return autoThreadsPerRank(local);
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
    const int threads = m_kernels->threads();
    m_view.description = "cpu, " + std::to_string(threads) +
                         (threads == 1 ? " thread" : " threads") + " per rank, OpenBLAS " +
                         blasCoreName() + " kernels, MPI collectives";
    // The ranks share the machine's cores: each measures what it gets.
    m_view.peak_flops = measureSgemmPeakFlops(512, 0.2);
}

// The CUDA module beside this executable, or nullptr with the reason in `error`.
static MakeCudaBackendFn loadCudaModule(std::string& error) {
    char self[4096] = {};
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    const std::string dir =
        len > 0 ? std::filesystem::path(std::string(self, len)).parent_path().string() : ".";
    const std::string module = dir + "/" + kCudaBackendModule;
    if (!std::filesystem::exists(module)) {
        error = "run.device: \"cuda\", but this zerolab-train was built without CUDA (no " +
                module +
                "; ZEROLAB_WITH_CUDA=OFF, or nvcc and NCCL were not found at configure "
                "time; docs/gpu.md); use \"cpu\"";
        return nullptr;
    }
    // Kept loaded for the life of the process: the objects it makes live until exit.
    void* handle = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        error = std::string("run.device: \"cuda\", but the CUDA runtime, cuBLAS or NCCL cannot "
                            "be loaded: ") +
                dlerror() + "; use \"cpu\"";
        return nullptr;
    }
    auto make = reinterpret_cast<MakeCudaBackendFn>(dlsym(handle, kCudaBackendSymbol));
    if (!make)
        error = module + ": no symbol " + kCudaBackendSymbol;
    return make;
}

// The CUDA half is a module of its own, loaded only here: a CPU run never maps CUDA's
// libraries (cuBLAS and cudart add some 200 MiB of resident memory at load).
void TrainBackend::makeCuda(const TrainConfig& config, Communicator& mpi) {
    std::string error;
    const MakeCudaBackendFn make = loadCudaModule(error);
    // Every rank learns whether all of them have the module before any goes on.
    if (mpi.sumDouble(make ? 0.0 : 1.0) > 0)
        throw make ? BackendError("run.device: \"cuda\", but another rank cannot load the "
                                  "CUDA backend",
                                  false)
                   : BackendError(error);
    CudaBackendParts parts;
    make(config, mpi, parts);
    if (parts.fatal)
        throw std::runtime_error(parts.error); // zerolab-train aborts the job
    if (!parts.error.empty())
        throw BackendError(parts.error, parts.error_is_own);
    m_kernels = std::move(parts.kernels);
    m_comm = std::move(parts.comm);
    m_view.kernels = m_kernels.get();
    m_view.comm = m_comm.get();
    m_view.description = std::move(parts.description);
    m_view.peak_flops = parts.peak_flops;
}

} // namespace zerolab
