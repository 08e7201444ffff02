// A trial: its config file, its job run to its end by launch/job_runner (process group,
// timeout, stop), its run settled in the store and its steps measured.
#include "runtime/tune/trial_runner.h"

#include "runtime/launch/job_runner.h"
#include "runtime/launch/launch_failure.h"
#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_texts.h"
#include "storage/run_reader.h"
#include "storage/settle_run.h"
#include "storage/store_clock.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

constexpr auto kPoll = std::chrono::milliseconds(50);
constexpr double kStopGraceS = 10;

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path trialPath(const std::string& work_dir, std::int64_t sweep_id, int idx, const char* ext) {
    return fs::path(work_dir) /
           ("sweep-" + std::to_string(sweep_id) + "-trial-" + std::to_string(idx) + ext);
}

bool looksOutOfMemory(const std::string& err, const std::optional<LaunchFailure>& f) {
    for (const char* s : {"bad_alloc", "out of memory", "Cannot allocate memory", "OOM"})
        if (err.find(s) != std::string::npos)
            return true;
    return f && f->kind == LaunchFailureKind::RankSignaled && f->signal == SIGKILL;
}

// Reads the measured steps (step > warmup) of the run into the trial.
void measure(const std::string& db, int warmup, TrialRecord& t) {
    RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
    std::vector<double> tps;
    std::vector<double> exposed;
    for (const StepRecord& s : reader.steps(t.run_id, warmup)) {
        if (std::isfinite(s.tokens_per_s))
            tps.push_back(s.tokens_per_s);
        exposed.push_back(s.comm.exposed_ms);
    }
    std::int64_t peak = -1;
    for (const RankSample& r : reader.rankSeries(t.run_id, warmup))
        peak = std::max(peak, r.rank.peak);
    t.tokens_per_s = median(tps);
    t.spread_tokens_per_s = halfIqr(tps);
    t.peak_bytes = peak;
    t.exposed_ms = median(exposed);
}

// Tags the trial's run with the sweep's id and, when `message` is given, ends it so if
// it is still marked running.
void settleTrialRun(const TrialEnvironment& env, std::int64_t run_id, RunStatus status,
                    const std::string& message) {
    settleRun(env.db_path, run_id, {"sweep-" + std::to_string(env.sweep_id)}, status, message);
}

} // namespace

double median(std::vector<double> xs) {
    if (xs.empty())
        return kUnknown;
    std::sort(xs.begin(), xs.end());
    const std::size_t n = xs.size();
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

double halfIqr(std::vector<double> xs) {
    if (xs.empty())
        return kUnknown;
    std::sort(xs.begin(), xs.end());
    // Linear interpolation between order statistics (numpy's default).
    const auto q = [&](double p) {
        const double pos = p * static_cast<double>(xs.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, xs.size() - 1);
        return xs[lo] + (pos - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
    };
    return (q(0.75) - q(0.25)) / 2;
}

LaunchSpec trialLaunchSpec(const std::string& launcher, const std::string& program, int world,
                           const std::vector<std::string>& program_args) {
    LaunchSpec spec;
    spec.kind = LauncherKind::Mpirun;
    spec.launcher = launcher;
    spec.np = world;
    spec.program = program;
    spec.program_args = program_args;
    return spec;
}

std::string commandLine(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) {
        const bool plain =
            !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:,@+") == std::string::npos;
        std::string word = a;
        if (!plain) {
            word = "'";
            for (char c : a)
                word += c == '\'' ? std::string("'\\''") : std::string(1, c);
            word += "'";
        }
        out += (out.empty() ? "" : " ") + word;
    }
    return out;
}

TrialRecord runTrial(const SweepSpec& spec, const TrialEnvironment& env, TrialRecord t) {
    const fs::path config_path = trialPath(env.work_dir, env.sweep_id, t.idx, ".json");
    const fs::path out_path = trialPath(env.work_dir, env.sweep_id, t.idx, ".out");
    const fs::path err_path = trialPath(env.work_dir, env.sweep_id, t.idx, ".err");
    const nlohmann::json doc = trialRunConfig(spec, nlohmann::json::parse(t.config_json), t.world);
    // Checked once more before launch (a sweep stored before this check, or resumed):
    // a config its ranks would refuse is never launched.
    if (std::string errors = trialRunErrors(spec, nlohmann::json::parse(t.config_json), t.world,
                                            config_path.string());
        !errors.empty()) {
        t.status = TrialStatus::Invalid;
        t.reason = std::move(errors);
        return t;
    }
    {
        std::error_code ec;
        fs::create_directories(env.work_dir, ec);
        std::ofstream out(config_path);
        out << doc.dump(2) << '\n';
        if (!out)
            throw SweepError(config_path.string() + ": cannot write the trial's config");
    }
    const std::string run_name =
        spec.name + " #" + std::to_string(env.sweep_id) + " trial " + std::to_string(t.idx);
    // Absolute: the trial starts in the sweep's folder (request.cwd).
    const auto anchored = [](const std::string& p) {
        return p.find('/') == std::string::npos ? p : fs::absolute(p).string();
    };
    const LaunchSpec ls =
        trialLaunchSpec(anchored(spec.launcher), anchored(env.program), t.world,
                        {"--config", fs::absolute(config_path).string(), "--db",
                         fs::absolute(env.db_path).string(), "--run-name", run_name});

    t.status = TrialStatus::Running;
    t.reason.clear();
    t.run_id = -1;
    t.started_at = unixNow();
    t.ended_at = kUnknown;
    JobRequest request;
    request.argv = launchArgv(ls);
    request.env = launchEnvironment(ls, ::geteuid() == 0);
    request.stdout_path = out_path.string();
    request.stderr_path = err_path.string();
    request.cwd = env.work_dir; // a trial's relative defaults stay in the sweep's folder
    request.timeout_s = spec.trial_timeout_s;
    request.stop = env.stop;
    request.stop_grace_s = kStopGraceS;
    request.end_with_parent = true;
    request.on_poll = env.on_poll;
    request.on_started = [&](pid_t pid) {
        t.pid = pid;
        if (env.on_started)
            env.on_started(t);
    };
    JobOutcome job;
    try {
        job = runJob(request);
    } catch (const LaunchError& e) {
        throw SweepError(e.what());
    }
    t.pid = -1;
    t.ended_at = unixNow();
    t.run_id = job.run_id;
    const bool stopped = job.stopped;
    const bool timed_out = job.timed_out;
    if (stopped && !timed_out) {
        t.status = TrialStatus::Pending; // run again on resume
        t.reason = renderEnglish(Message(kReasonStopped));
    } else if (timed_out) {
        t.status = TrialStatus::Timeout;
        char seconds[64];
        std::snprintf(seconds, sizeof seconds, "%.0f", spec.trial_timeout_s);
        t.reason = renderEnglish(Message(kReasonTimeout, {std::string(seconds)}));
    } else if (job.exit_code == 0) {
        t.status = TrialStatus::Finished;
    } else {
        t.status = looksOutOfMemory(job.err, parseLaunchFailure(job.err)) ? TrialStatus::Oom
                                                                          : TrialStatus::Failed;
        t.reason = jobFailureReason(job);
    }
    if (t.run_id >= 0) {
        settleTrialRun(env, t.run_id,
                       stopped && !timed_out ? RunStatus::Stopped : RunStatus::Failed,
                       "zerolab-sweep: " + t.reason);
        if (t.status == TrialStatus::Finished) {
            measure(env.db_path, spec.warmup_steps, t);
            if (!std::isfinite(t.tokens_per_s)) {
                t.status = TrialStatus::Failed;
                t.reason = renderEnglish(Message(kReasonNoMeasuredStep));
            }
        }
    } else if (t.status == TrialStatus::Finished) {
        t.status = TrialStatus::Failed;
        t.reason = renderEnglish(Message(kReasonNoRunLine, {out_path.string()}));
    }
    return t;
}

TrialRecord abandonTrial(const TrialEnvironment& env, TrialRecord t) {
    if (t.pid > 0) {
        const std::string cmdline = readFile("/proc/" + std::to_string(t.pid) + "/cmdline");
        const std::string config = trialPath(env.work_dir, env.sweep_id, t.idx, ".json").string();
        // Only when the pid is still the launcher of this trial (not reused since).
        if (cmdline.find(config) != std::string::npos) {
            ::kill(-static_cast<pid_t>(t.pid), SIGKILL);
            for (int i = 0; i < 200 && ::kill(static_cast<pid_t>(t.pid), 0) == 0; ++i)
                std::this_thread::sleep_for(kPoll);
        }
    }
    const auto run_line =
        metricLineOfType(readFile(trialPath(env.work_dir, env.sweep_id, t.idx, ".out")), "run");
    const std::int64_t run_id =
        run_line && run_line->contains("run_id") && (*run_line)["run_id"].is_number_integer()
            ? (*run_line)["run_id"].get<std::int64_t>()
            : -1;
    settleTrialRun(env, run_id, RunStatus::Failed,
                   "zerolab-sweep: the sweep was interrupted during this trial; it runs again");
    t.status = TrialStatus::Pending;
    t.reason = renderEnglish(Message(kReasonInterrupted, {std::to_string(run_id)}));
    t.pid = -1;
    t.run_id = -1;
    return t;
}

} // namespace zerolab
