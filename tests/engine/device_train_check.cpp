// fenced_train_check / delayed_train_check --config F --db DB [--run-name NAME]
// [--export-model FILE] [--resume DIR]: one rank of zerolab-train's training loop on a
// stand-in for a GPU built from the CPU kernels, which the engine tests compare bit for bit
// with the plain CPU run. Rank 0 writes the usual metric lines.
// - fenced (ZEROLAB_DELAYED_DEVICE unset): FencedKernels (fenced_kernels.h), memory the
//   host cannot touch, with the host-staged communicator, as a CUDA run with several ranks
//   on one GPU would go. Any host access to device memory outside the Kernels interface
//   ends the rank with SIGSEGV.
// - delayed (ZEROLAB_DELAYED_DEVICE=1): DelayedKernels and DelayedCommunicator
//   (delayed_device.h), ops and collectives that run later on streams of their own with
//   NCCL's event semantics, as a CUDA run with a GPU per rank would go. A missing wait or
//   a buffer reused too early changes the results. ZEROLAB_FAKE_HOLD_US sets how long a
//   collective stays in flight (default 300).
#include "tests/engine/delayed_device.h"
#include "tests/engine/fenced_kernels.h"

#include "kernels/cpu/blas_coretype.h"

#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_staged.h"
#include "runtime/config/config.h"
#include "runtime/train/trainer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {

#ifndef ZEROLAB_DELAYED_DEVICE
#define ZEROLAB_DELAYED_DEVICE 0
#endif
constexpr bool kDelayed = ZEROLAB_DELAYED_DEVICE;

// The run's outcome as zerolab-train's exit code, and what it proved.
int train(const zerolab::TrainConfig& config, const zerolab::TrainOptions& options,
          zerolab::MpiCommunicator& mpi) {
    zerolab::RankBackend backend;
    if (!kDelayed) {
        zerolab::test::FencedKernels kernels(zerolab::makeCpuKernels(1));
        zerolab::StagedCommunicator comm(mpi, kernels);
        backend.kernels = &kernels;
        backend.comm = &comm;
        backend.description = "fenced cpu kernels, host-staged MPI";
        const auto outcome = zerolab::runTraining(config, options, backend);
        std::fprintf(stderr, "fenced_train_check: rank %d ran %lld kernel calls\n", mpi.rank(),
                     kernels.opCount());
        return outcome == zerolab::TrainOutcome::Finished ? 0 : 1;
    }
    const char* hold = std::getenv("ZEROLAB_FAKE_HOLD_US");
    zerolab::test::FakeDevice device(std::chrono::microseconds(hold ? std::atoi(hold) : 300));
    zerolab::test::DelayedKernels kernels(zerolab::makeCpuKernels(1), device);
    zerolab::test::DelayedCommunicator comm(mpi, device);
    backend.kernels = &kernels;
    backend.comm = &comm;
    backend.description = "delayed cpu kernels, NCCL-like delayed collectives";
    const auto outcome = zerolab::runTraining(config, options, backend);
    std::fprintf(stderr,
                 "delayed_train_check: rank %d queued %lld kernel calls, %lld collectives\n",
                 mpi.rank(), kernels.queuedOps(), comm.collectives());
    // Nothing queued, or no collective on several ranks: the run proved nothing.
    if (kernels.queuedOps() == 0 || (mpi.size() > 1 && comm.collectives() == 0)) {
        std::fprintf(stderr, "delayed_train_check: rank %d: nothing went through the fake\n",
                     mpi.rank());
        return 1;
    }
    return outcome == zerolab::TrainOutcome::Finished ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    // The same OpenBLAS kernels as zerolab-train, whose runs these are compared with bit for bit.
    zerolab::runWithBestBlasKernels(argv);
    zerolab::MpiSession session(&argc, &argv);
    zerolab::MpiCommunicator mpi;
    std::string configPath;
    zerolab::TrainOptions options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--config")
            configPath = value;
        else if (key == "--db")
            options.db_path = value;
        else if (key == "--run-name")
            options.run_name = value;
        else if (key == "--export-model")
            options.export_model = value;
        else if (key == "--resume")
            options.resume_from = value;
    }
    try {
        return train(zerolab::loadConfigOrThrow(configPath, mpi.size()), options, mpi);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: rank %d: %s\n", argv[0], mpi.rank(), e.what());
        zerolab::MpiSession::abort(1);
    }
}
