// fenced_train_check --config F --db DB [--run-name NAME] [--export-model FILE]
// [--resume DIR]: one rank of
// zerolab-train's training loop on FencedKernels (CPU kernels whose memory the host
// cannot touch, fenced_kernels.h) with the host-staged communicator, as a CUDA run with
// several ranks on one GPU would go. Any host access to device memory outside the
// Kernels interface ends the rank with SIGSEGV. Rank 0 writes the usual metric lines.
#include "tests/engine/fenced_kernels.h"

#include "kernels/cpu/blas_coretype.h"

#include "runtime/comm/comm_mpi.h"
#include "runtime/comm/comm_staged.h"
#include "runtime/config/config.h"
#include "runtime/train/trainer.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

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
        const zerolab::TrainConfig config = zerolab::loadConfigOrThrow(configPath, mpi.size());
        zerolab::test::FencedKernels kernels(zerolab::makeCpuKernels(1));
        zerolab::StagedCommunicator comm(mpi, kernels);
        zerolab::RankBackend backend;
        backend.kernels = &kernels;
        backend.comm = &comm;
        backend.description = "fenced cpu kernels, host-staged MPI";
        const auto outcome = zerolab::runTraining(config, options, backend);
        std::fprintf(stderr, "fenced_train_check: rank %d ran %lld kernel calls\n", mpi.rank(),
                     kernels.opCount());
        return outcome == zerolab::TrainOutcome::Finished ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fenced_train_check: rank %d: %s\n", mpi.rank(), e.what());
        zerolab::MpiSession::abort(1);
    }
}
