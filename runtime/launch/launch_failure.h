// Reads what mpirun (or srun) printed on stderr when a job failed and turns it into
// one structured, human-readable failure: which rank died and of what, or why the
// job never started (launcher or executable missing, hostfile, slots, root, ports).
#pragma once

#include <optional>
#include <string>

namespace zerolab {

enum class LaunchFailureKind {
    RankSignaled, // "mpirun noticed that process rank R with PID P on node H exited on signal S"
    RankExited,   // a rank returned a non-zero exit code
    ExecutableMissing, // "could not access or execute an executable"
    LaunchFailed,      // "mpirun was unable to launch" (anything else)
    NotEnoughSlots,
    HostfileError,       // unreadable hostfile or a parse error in it
    RunAsRoot,           // root without the Open MPI overrides
    NetworkOrPermission, // ports, bind(), connection refused, permission denied
    LauncherMissing,     // the launcher itself could not be started
    Unknown,
};

struct LaunchFailure {
    LaunchFailureKind kind = LaunchFailureKind::Unknown;
    int rank = -1; // the rank that died, -1 when none is named
    long pid = -1; // its pid, -1 when unknown
    std::string host;
    int signal = -1;         // the signal number for RankSignaled
    std::string signal_name; // "Killed", "Segmentation fault", ...
    int exit_code = -1;      // the rank's own exit code for RankExited
    std::string detail;      // the file, executable or quoted line the message names
    std::string summary;     // one sentence for a user: what happened and what to do
};

// Parses a failed job's stderr (the whole text or its tail). Returns nullopt when
// nothing recognisable is in it. Never throws.
std::optional<LaunchFailure> parseLaunchFailure(const std::string& stderr_text);

// The failure when the launcher could not even be started (QProcess::FailedToStart,
// execvp ENOENT): a summary naming the path and how to fix it.
LaunchFailure launcherMissing(const std::string& launcher);

// "LauncherMissing", "RankSignaled", ... for logs and tests.
const char* launchFailureKindName(LaunchFailureKind kind);

} // namespace zerolab
