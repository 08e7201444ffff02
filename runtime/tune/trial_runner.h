// One trial: a real zerolab-train job under the launcher, started as the GUI starts one
// (launchArgv of a LaunchSpec), in a process group of its own, with W warm-up and M
// measured steps. A per-trial timeout SIGKILLs the whole group (a rank stopped by
// SIGSTOP included); the run is then marked failed in the store. The launcher gets SIGTERM
// when the sweep's process dies (a SIGKILLed driver), so no trial runs on unsupervised. The result
// is read back from the store: the median and spread of tokens/s over the measured steps, the
// largest per-rank peak, the median exposed comm.
#pragma once

#include "runtime/launch/launch_spec.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace zerolab {

struct TrialEnvironment {
    std::string program; // zerolab-train
    std::string db_path;
    std::string work_dir; // trial configs and logs go here
    std::int64_t sweep_id = 0;
    // Set (by a signal handler) to stop: the trial's group gets SIGTERM, then SIGKILL.
    const std::atomic<bool>* stop = nullptr;
    // Called once the launcher runs, with the trial marked running (pid set): the caller
    // stores it so that a killed sweep's resume can find and end the group.
    std::function<void(const TrialRecord&)> on_started;
    // Called every poll while the trial runs (the driver's heartbeat).
    std::function<void()> on_poll;
};

// The launch spec of a trial's config file at N ranks: the one place the sweep builds a
// command line (the trials and the best config's printed command both use it).
LaunchSpec trialLaunchSpec(const std::string& launcher, const std::string& program, int world,
                           const std::vector<std::string>& program_args);

// `mpirun -np 2 ... --config F` as one line a shell reads back the same (words quoted).
std::string commandLine(const std::vector<std::string>& argv);

// Runs the trial to its end, timeout or stop; returns it with status (finished, failed,
// timeout, oom; pending again when stopped), reason, run_id and measurements. Throws
// SweepError only when nothing could be started for reasons of the sweep's own (files).
TrialRecord runTrial(const SweepSpec& spec, const TrialEnvironment& env, TrialRecord trial);

// Median and half the interquartile range of xs (NaN for none).
double median(std::vector<double> xs);
double halfIqr(std::vector<double> xs);

// A trial found running when a sweep resumes (its zerolab-sweep was killed): ends its
// process group if the pid is still this trial's launcher, marks its run failed, and
// returns it pending, to run again.
TrialRecord abandonTrial(const TrialEnvironment& env, TrialRecord trial);

} // namespace zerolab
