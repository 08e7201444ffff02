// zerolab-train's entry point: parses arguments with CLI11 and maps results to the
// exit codes of docs/architecture.md (0 ok, 2 invalid input, 3 stopped, 1 anything else).
// The commands themselves live in the runtime library.
#include "kernels/cpu/blas_coretype.h"
#include "runtime/comm/comm_mpi.h"
#include "runtime/config/config_check.h"
#include "runtime/data/data_loader.h"
#include "runtime/engine/checkpoint.h"
#include "runtime/model/gpt2/llmc_model_file.h"
#include "runtime/model/safetensors.h"
#include "runtime/text/stdout_written.h"
#include "runtime/train/config_agreement.h"
#include "runtime/train/link_hosts.h"
#include "runtime/train/model_files.h"
#include "runtime/train/train_backend.h"
#include "runtime/train/trainer.h"
#include "runtime/train/version.h"
#include "storage/store_error.h"
#include "storage/stored_text.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

std::string joinArgs(int argc, char** argv) {
    std::string s;
    for (int i = 0; i < argc; ++i)
        s += (i ? " " : "") + std::string(argv[i]);
    return s;
}

// Invalid input discovered while training (files, checkpoints, the store) is exit 2.
// One whole line in one write: stderr is unbuffered, and under mpirun --tag-output every
// write gets its own rank prefix, so a line written in pieces arrives cut up.
void errorLine(const std::string& line) {
    const std::string whole = line + "\n";
    std::cerr.write(whole.data(), static_cast<std::streamsize>(whole.size()));
    std::cerr.flush();
}

// ZEROLAB_FAULT_SLOW_RANK=R:MS, a test fixture for the step timeline (docs/metrics.md):
// rank R's data loading takes MS milliseconds longer at every step. False, with the
// reason on stderr, for a value that is not two numbers R >= 0 and MS > 0.
bool readSlowRankFault(zerolab::TrainOptions& options) {
    const char* v = std::getenv("ZEROLAB_FAULT_SLOW_RANK");
    if (v == nullptr || *v == '\0')
        return true;
    int rank = -1;
    double ms = 0;
    char rest = 0;
    if (std::sscanf(v, "%d:%lf%c", &rank, &ms, &rest) != 2 || rank < 0 || !(ms > 0)) {
        errorLine(std::string("zerolab-train: ZEROLAB_FAULT_SLOW_RANK: expected RANK:MS (e.g. "
                              "1:50), got \"") +
                  v + "\"");
        return false;
    }
    options.slow_rank = rank;
    options.slow_rank_ms = ms;
    return true;
}

// ZEROLAB_FAULT_STOP_RANK=R:STEP, a test fixture for sweeps (docs/tune.md): rank R stops
// itself with SIGSTOP as step STEP begins, a planted hang. False, with the reason on
// stderr, for a value that is not two integers R >= 0 and STEP >= 1.
bool readStopRankFault(zerolab::TrainOptions& options) {
    const char* v = std::getenv("ZEROLAB_FAULT_STOP_RANK");
    if (v == nullptr || *v == '\0')
        return true;
    int rank = -1;
    long long step = 0;
    char rest = 0;
    if (std::sscanf(v, "%d:%lld%c", &rank, &step, &rest) != 2 || rank < 0 || step < 1) {
        errorLine(std::string("zerolab-train: ZEROLAB_FAULT_STOP_RANK: expected RANK:STEP (e.g. "
                              "1:3), got \"") +
                  v + "\"");
        return false;
    }
    options.stop_rank = rank;
    options.stop_step = step;
    return true;
}

// I/O failures (a full disk, a failed checkpoint write: CheckpointWriteError, a store's
// I/O error) are 1, never 2.
int exitCodeFor(const std::exception& e) {
    if (const auto* store = dynamic_cast<const zerolab::StoreError*>(&e))
        return store->isIo() ? 1 : 2;
    if (dynamic_cast<const zerolab::DataError*>(&e) ||
        dynamic_cast<const zerolab::CheckpointError*>(&e) ||
        dynamic_cast<const zerolab::LlmcModelFileError*>(&e) ||
        dynamic_cast<const zerolab::SafetensorsError*>(&e))
        return 2;
    return 1;
}

int train(const std::string& config_path, zerolab::TrainOptions options, int argc, char** argv) {
    zerolab::MpiSession mpi(&argc, &argv);
    zerolab::MpiCommunicator comm;
    const bool root = comm.rank() == 0;
    std::vector<zerolab::ConfigDiagnostic> warnings;
    zerolab::TrainConfig config;
    try {
        config = zerolab::loadConfigOrThrow(config_path, comm.size(), &warnings);
    } catch (const zerolab::ConfigError& e) {
        if (root)
            errorLine(e.what());
        return 2; // every rank reads the same file and comes to the same verdict
    }
    if (root)
        for (const auto& w : warnings)
            errorLine(zerolab::formatDiagnostic(config_path, w));
    if (const auto problem = zerolab::exportModelProblem(config.model, options.export_model)) {
        if (root)
            errorLine("zerolab-train: " + *problem);
        return 2;
    }
    // Before anything runs: ranks that resolved different configs would part ways in
    // their collectives (an MPMD launch with other --steps hung, blamed on the transport).
    if (const auto mismatch =
            zerolab::configMismatch(comm, zerolab::rankSettings(config, options))) {
        if (root)
            errorLine("zerolab-train: " + *mismatch);
        return 2;
    }
    // Link classes from the host names, before the engine forms ZeRO++'s groups from them.
    const zerolab::LinkHosts links = zerolab::resolveLinkHosts(config, zerolab::rankHosts(comm));
    if (links.error) {
        if (root)
            errorLine(config_path + ": " + *links.error);
        return 2;
    }
    if (links.note && root)
        errorLine("zerolab-train: " + *links.note);
    if (links.ranks_per_host > 0)
        config.run.ranks_per_host = links.ranks_per_host;
    zerolab::installStopSignalHandlers();
    std::unique_ptr<zerolab::TrainBackend> backend;
    try {
        backend = std::make_unique<zerolab::TrainBackend>(config, comm);
    } catch (const zerolab::BackendError& e) {
        // Every rank fails here together; rank 0 prints the first rank's own reason.
        constexpr std::size_t kBytes = 1024;
        char mine[kBytes] = {};
        if (e.own())
            std::snprintf(mine, kBytes, "%s", e.what());
        std::vector<char> all(root ? comm.size() * kBytes : 0);
        comm.gatherBytes(mine, kBytes, root ? all.data() : nullptr);
        for (int r = 0; root && r < comm.size(); ++r) {
            const char* why = all.data() + r * kBytes;
            if (*why) {
                errorLine(config_path + ": " + (r == 0 ? "" : "rank " + std::to_string(r) + ": ") +
                          why);
                break;
            }
        }
        return 2;
    } catch (const std::exception& e) {
        errorLine("zerolab-train: rank " + std::to_string(comm.rank()) + " on " + comm.host() +
                  ": " + e.what());
        if (comm.size() > 1)
            zerolab::MpiSession::abort(1);
        return 1;
    }
    try {
        switch (zerolab::runTraining(config, options, backend->rank())) {
        case zerolab::TrainOutcome::Finished:
            return 0;
        case zerolab::TrainOutcome::Stopped:
            return 3;
        case zerolab::TrainOutcome::Failed:
            return 1;
        }
    } catch (const std::exception& e) {
        errorLine("zerolab-train: rank " + std::to_string(comm.rank()) + " on " + comm.host() +
                  ": " + e.what());
        const int code = exitCodeFor(e);
        if (comm.size() > 1)
            zerolab::MpiSession::abort(code); // the other ranks may wait in a collective
        return code;
    }
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    zerolab::runWithBestBlasKernels(argv);
    CLI::App app{"zerolab-train: one rank of a ZeRO data-parallel training run.\n"
                 "Launch N ranks with: mpirun -np N zerolab-train --config FILE"};
    app.set_version_flag("--version", std::string(zerolab::version()));
    std::string check_config;
    int world = 0;
    std::string config;
    zerolab::TrainOptions options;
    int steps = 0;
    app.add_option("--check-config", check_config,
                   "Resolve the config FILE, print it as JSON (every default filled in) and exit")
        ->option_text("FILE");
    CLI::Option* world_opt =
        app.add_option("--world", world, "With --check-config: data-parallel ranks to assume")
            ->check(CLI::PositiveNumber)
            ->option_text("N");
    app.add_option("--config", config, "Train with this config FILE")->option_text("FILE");
    app.add_option("--db", options.db_path,
                   "Run store (default: $ZEROLAB_DB, else $XDG_DATA_HOME/zerolab/runs.db)")
        ->option_text("PATH");
    app.add_option("--run-name", options.run_name, "Name of the run in the store")
        ->option_text("NAME");
    CLI::Option* steps_opt = app.add_option("--steps", steps, "Override run.steps")
                                 ->check(CLI::PositiveNumber)
                                 ->option_text("K");
    app.add_option("--resume", options.resume_from,
                   "Continue from this checkpoint folder (any world size or stage)")
        ->option_text("DIR");
    app.add_option("--export-model", options.export_model,
                   "Write the final weights: GPT-2 as an llm.c fp32 model file, a Llama "
                   "model as Hugging Face safetensors (FILE.safetensors, its config.json "
                   "beside it)")
        ->option_text("FILE");
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return zerolab::exitAfterOutput("zerolab-train", app.exit(e)); // --help, --version
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }

    try {
        if (!check_config.empty()) {
            std::optional<int> w = world_opt->count() ? std::optional<int>(world) : std::nullopt;
            return zerolab::exitAfterOutput(
                "zerolab-train",
                zerolab::checkConfigCommand(check_config, w, std::cout, std::cerr));
        }
        if (config.empty()) {
            std::cerr << "zerolab-train: give --config FILE (or --check-config FILE)\n\n"
                      << app.help();
            return 2;
        }
        // Checked before anything runs: the name goes into the store and every JSON line.
        if (const auto problem = zerolab::storedTextProblem(
                options.run_name, zerolab::TextKind::OneLine, zerolab::kMaxRunNameBytes)) {
            errorLine("zerolab-train: --run-name: " + *problem);
            return 2;
        }
        if (steps_opt->count())
            options.steps = steps;
        if (!readSlowRankFault(options) || !readStopRankFault(options))
            return 2;
        options.config_path = config;
        options.command_line = joinArgs(argc, argv);
        return train(config, options, argc, argv);
    } catch (const std::exception& e) {
        errorLine(std::string("zerolab-train: ") + e.what());
        return 1;
    }
}
