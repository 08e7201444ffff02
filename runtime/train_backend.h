// What a zerolab-train rank computes and communicates on, from run.device: the CPU
// kernels with the MPI communicator, or the CUDA kernels with NCCL (one GPU per rank)
// or with MPI staged through host memory (several ranks per GPU). Also this rank's
// share of the peak FLOP/s for MFU. Compiled into zerolab-train only, so that nothing
// else links CUDA.
#pragma once

#include "runtime/config.h"
#include "runtime/trainer.h"

#include <memory>
#include <stdexcept>

namespace zerolab {

// The run cannot have the device it asks for (a build without CUDA, no GPU, ...). The
// message names run.device and the reason; zerolab-train exits 2.
class BackendError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

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
