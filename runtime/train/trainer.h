// The training loop of one rank: data, model, ZeRO engine, schedule, control
// (signals and store commands), telemetry to the store and stdout (rank 0),
// checkpoints. zerolab-train's main builds one and runs it.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/config/config.h"
#include "storage/records.h"

#include <atomic>
#include <optional>
#include <string>

namespace zerolab {

struct TrainOptions {
    std::string config_path;
    std::string db_path;      // empty: defaultStorePath()
    std::string run_name;     // empty: derived from the config
    std::string command_line; // recorded with the run
    std::string resume_from;  // a checkpoint directory, or empty
    std::string export_model; // an llm.c model file written at the end, or empty
    std::optional<int> steps; // overrides run.steps
    // A test fixture (ZEROLAB_FAULT_SLOW_RANK=R:MS, docs/metrics.md): rank `slow_rank`'s
    // data loading takes `slow_rank_ms` longer at every step's first micro-batch; -1: none.
    int slow_rank = -1;
    double slow_rank_ms = 0;
    // A test fixture (ZEROLAB_FAULT_STOP_RANK=R:STEP, docs/tune.md): rank `stop_rank` stops
    // itself with SIGSTOP as step `stop_step` begins, a hang the sweep's timeout must end.
    int stop_rank = -1;
    long long stop_step = 0;
};

// What one rank computes and communicates on (train_backend.h makes it).
struct RankBackend {
    Kernels* kernels = nullptr;
    Communicator* comm = nullptr; // collectives on the kernels' memory; helpers on host memory
    std::string description;      // for the run's first event, e.g. "cpu, 2 threads per rank, ..."
    // This rank's share of the peak FLOP/s (the ranks on one device split it); nullopt when
    // the device's peak is unknown, which makes MFU unknown.
    std::optional<double> peak_flops;
};

// What the process should exit with (docs/architecture.md: 0 ok, 3 stopped by request, 1 else).
enum class TrainOutcome { Finished, Stopped, Failed };

// Set by the SIGINT/SIGTERM handler; the loop stops after the current step.
extern std::atomic<bool> g_stopRequested;
void installStopSignalHandlers();

// Runs the whole training on this rank (collective: every rank calls it). Throws on
// invalid input discovered late (data files, checkpoints): DataError, CheckpointError,
// StoreError; the main maps those to exit code 2.
TrainOutcome runTraining(const TrainConfig& config, const TrainOptions& options,
                         const RankBackend& backend);

} // namespace zerolab
