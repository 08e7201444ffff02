// zerolab-calibrate's options and their bounds (docs/planner.md, "Machine profile"): every
// value is checked before anything runs, so that a flag no machine can honour is exit 2
// naming it, never a launched job, a KernelError or a rank's bad_alloc.
#pragma once

#include <string>
#include <vector>

namespace zerolab {

struct CalibrateOptions {
    std::string out;
    std::vector<std::string> models = {"micro", "mini"};
    std::vector<int> micros = {1, 2, 4, 8};
    std::vector<int> ranks = {2, 4};
    std::string emulated_hosts; // a --name of scripts/emulated-hosts, for the inter-host fits
    std::string db;             // the run store the profile is kept in as well
    std::string kernels_from;   // a profile whose kernel rates, intra-host fits and slowdowns
                                // are kept (only the inter-host fits are measured)
    std::string check;          // a profile whose reference pass is timed again
    int threads = 1;
    int reps = 5;
    int rounds = 7; // of the in-situ pieces and of the sharing passes
    double max_bytes = 64.0 * 1024 * 1024;
    double max_call_s = 1.0;
    // The child of an mpirun job: measure the collectives on this link class.
    std::string collectives;
    std::string fragment;
    bool progress_json = false;
    // Write and store the profile even when the machine was loaded while it was measured
    // (calibrate_load.h); without it such a profile is refused, exit 1.
    bool allow_load = false;
    // The child's share of the progress stream: measurements done before it, of how many.
    long progress_done = 0;
    long progress_total = 0;
};

// The bounds. A job's ranks share this one machine (its cores, its memory, Open MPI's
// shared-memory segments per pair of ranks), on emulated hosts too.
inline constexpr int kMaxCalibrateRanks = 64;
// The collectives start at 1 KiB; a rank holds about 3x the largest size (its buffer and
// the fresh memory of the single calls).
inline constexpr double kMinCollectiveBytes = 1024;
inline constexpr double kMaxCollectiveBytes = 1024.0 * 1024 * 1024;
inline constexpr double kRankBytesPerCollectiveByte = 3;
// A size is timed in about ten calls; past a minute a call, a calibration takes hours.
inline constexpr double kMaxCallSeconds = 60;

// What in `o` no calibration can honour (--rounds aside: --check reads it too), as "--FLAG: why,
// got VALUE" (the first found), or "". `memory_bytes`: this machine's memory, which the largest
// micro-batch's activations and the largest job's collective buffers must fit in (half of it each).
std::string calibrateOptionsProblem(const CalibrateOptions& o, double memory_bytes);

// This machine's physical memory in bytes (sysconf).
double physicalMemoryBytes();

// Whether `name` is a name scripts/emulated-hosts accepts (its valid_name: 1-24 letters,
// digits, '_', '.', '-', not starting with '.' or '-').
bool validEmulatedHostsName(const std::string& name);

} // namespace zerolab
