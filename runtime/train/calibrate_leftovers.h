// What a zerolab-calibrate leaves if it is killed (SIGKILL: no handler runs): its mpirun
// jobs, tied to its life with PR_SET_PDEATHSIG, and its work folder
// TMPDIR/zerolab-calibrate-PID with the jobs' fragments, which the next calibration sweeps.
#pragma once

#include <functional>
#include <string>
#include <sys/types.h>

namespace zerolab {

// TMPDIR/zerolab-calibrate-PID: a calibration's work folder (its jobs' fragments).
std::string calibrateWorkDir(pid_t pid);

// In a child just forked by `parent`, before exec: SIGTERM when the parent dies (an mpirun
// ends its ranks on it), and _exit(127) where the parent is gone already.
void endWithParent(pid_t parent);

// Every work folder whose calibration is gone: each process still running with the folder
// in its command line (a job's mpirun and ranks) is killed (SIGKILL), the folder removed.
// `said` gets one line per folder swept. Never throws.
void sweepCalibrateLeftovers(const std::function<void(const std::string&)>& said);

} // namespace zerolab
