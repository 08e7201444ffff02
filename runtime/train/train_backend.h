// What a zerolab-train rank computes and communicates on, from run.device: the CPU
// kernels with the MPI communicator, or the CUDA kernels with NCCL (one GPU per rank)
// or with MPI staged through host memory (several ranks per GPU). Also this rank's
// share of the peak FLOP/s for MFU. Compiled into zerolab-train only; the CUDA half is
// a module (libzerolab_cuda_backend.so beside zerolab-train) loaded on demand.
#pragma once

#include "runtime/config/config.h"
#include "runtime/train/trainer.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace zerolab {

// The run cannot have the device it asks for (a build without CUDA, no GPU, ...). The
// message names run.device and the reason; zerolab-train exits 2.
// `own`: the cause is on this rank (false where a rank only learned of another's).
class BackendError : public std::runtime_error {
public:
    explicit BackendError(const std::string& message, bool own = true)
        : std::runtime_error(message), m_own(own) {}
    bool own() const { return m_own; }

private:
    bool m_own;
};

// What the CUDA module hands back (train_backend_cuda.cpp).
struct CudaBackendParts {
    std::unique_ptr<Kernels> kernels;
    std::unique_ptr<Communicator> comm;
    std::string description;
    std::optional<double> peak_flops;
    std::string error;        // not empty: why there is no CUDA backend (a BackendError's message)
    bool error_is_own = true; // the cause is on this rank
    bool fatal = false;       // not a collective verdict: the job must be aborted
};
using MakeCudaBackendFn = void (*)(const TrainConfig&, Communicator&, CudaBackendParts&);
inline constexpr const char* kCudaBackendModule = "libzerolab_cuda_backend.so";
inline constexpr const char* kCudaBackendSymbol = "zerolab_make_cuda_backend";

class TrainBackend {
public:
    // Collective: every rank calls it with the same config. `mpi` carries the host
    // collectives (and the staged path's data) and must outlive this object.
    TrainBackend(const TrainConfig& config, Communicator& mpi);
    ~TrainBackend();
    TrainBackend(const TrainBackend&) = delete;
    TrainBackend& operator=(const TrainBackend&) = delete;

    const RankBackend& rank() const { return m_view; }

private:
    void makeCpu(const TrainConfig& config, Communicator& mpi);
    void makeCuda(const TrainConfig& config, Communicator& mpi);

    // Destroyed in reverse: the communicator (which may use the kernels) first.
    std::unique_ptr<Kernels> m_kernels;
    std::unique_ptr<Communicator> m_comm; // null: the MPI communicator itself
    RankBackend m_view;
};

} // namespace zerolab
