// One zerolab-train job run to its end: fork + setpgid + execve of a launcher argv
// (launchArgv), stdout and stderr to files, polled with waitpid so that a timeout and a
// stop request are seen within 50 ms; the whole process group is signalled, never single
// pids (mpirun's local ranks share its group). Read back: the run id from rank 0's `run`
// line, the runtime's own `end` message. Used by the sweep's trials and the Lab's runs.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/text/message.h"

#include <nlohmann/json.hpp>

namespace zerolab {

// Why a job that exited 0 gave no run: it printed no `run` line (%1: its stdout's file).
// The sweep's trials and the Lab's runs say it alike.
inline constexpr MessageSource kJobNoRunLine =
    ZEROLAB_TR("Job", "the job printed no run line (stdout: %1)");

struct JobRequest {
    std::vector<std::string> argv;                        // launcher first (launchArgv)
    std::vector<std::pair<std::string, std::string>> env; // added (launchEnvironment)
    std::string stdout_path;                              // created / truncated
    std::string stderr_path;
    // The job's working directory; empty: the caller's. The Lab's runs and the sweep's
    // trials start in their own folder, where their relative defaults (checkpoints/,
    // DeepSpeedJobName/) land.
    std::string cwd;
    double timeout_s = 0; // > 0: the group is SIGKILLed past it
    // Set (by a signal handler or another thread) to stop: SIGTERM to the group, SIGKILL
    // after stop_grace_s.
    const std::atomic<bool>* stop = nullptr;
    double stop_grace_s = 10;
    std::function<void(pid_t)> on_started; // once the launcher is forked (its pid = group)
    std::function<void()> on_poll;         // every poll (50 ms) while it runs
    // The launcher gets SIGTERM when the thread that called runJob dies (prctl
    // PR_SET_PDEATHSIG): a job that must not run on unsupervised (a sweep's trial). It
    // stops after its current step, as on a stop request.
    bool end_with_parent = false;
};

struct JobOutcome {
    int exit_code = -1; // the launcher's exit status; -1 when it died of a signal
    bool timed_out = false;
    bool stopped = false; // the stop flag was seen
    std::string out;      // the whole stdout and stderr, read back at the end
    std::string err;
    std::int64_t run_id = -1; // from rank 0's `run` line; -1 when none came
};

// Runs the job to its end, timeout or stop. Throws LaunchError (launch_spec.h) when
// the log files cannot be created or nothing can be forked.
JobOutcome runJob(const JobRequest& request);

// Rank 0's first metric line of `type` (run, step, event, end) in a job's stdout, whole
// again after --tag-output cut it into tagged pieces; nullopt when none came.
std::optional<nlohmann::json> metricLineOfType(const std::string& out, std::string_view type);
// The last metric line of `type`; nullopt when none came.
std::optional<nlohmann::json> lastMetricLineOfType(const std::string& out, std::string_view type);
// The message of rank 0's `end` line (why the run failed, in the runtime's own words);
// "" when none came (a config error, a crash).
std::string endMessage(const std::string& out);
// The last n non-empty lines of text, joined by " | ".
std::string lastLines(const std::string& text, std::size_t n);
// Why a job failed, in one line: the runtime's end message, else the launcher's
// failure summary (launch_failure.h), else the last two lines of stderr; cut at 600.
std::string jobFailureReason(const JobOutcome& job);

} // namespace zerolab
