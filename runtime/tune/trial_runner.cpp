// A trial's process: fork + setpgid + execvp of launchArgv, polled with waitpid so that
// the timeout and a stop request are seen within 50 ms; the group is signalled, never
// single pids (mpirun's local ranks share its group).
#include "runtime/tune/trial_runner.h"

#include "runtime/launch/launch_failure.h"
#include "runtime/launch/tagged_line.h"
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/store_clock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
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

// Rank 0's first metric line of `type` (the metric line protocol) in a job's stdout,
// whole again after --tag-output cut it into tagged pieces; nullopt when none came.
std::optional<nlohmann::json> metricLineOfType(const std::string& out, std::string_view type) {
    std::istringstream lines(out);
    for (std::string raw; std::getline(lines, raw);) {
        const std::string line = splitTaggedLine(raw).second;
        const auto brace = line.find('{');
        if (brace == std::string::npos)
            continue;
        auto j = nlohmann::json::parse(line.substr(brace), nullptr, false);
        if (j.is_object() && j.contains("type") && j["type"] == type)
            return j;
    }
    return std::nullopt;
}

// The run id from rank 0's `run` line, -1 when none came.
std::int64_t runIdFromStdout(const std::string& out) {
    const auto j = metricLineOfType(out, "run");
    return j && j->contains("run_id") && (*j)["run_id"].is_number_integer()
               ? (*j)["run_id"].get<std::int64_t>()
               : -1;
}

std::string lastLines(const std::string& text, std::size_t n) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.empty())
            lines.push_back(l);
    std::string out;
    for (std::size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

// The message of rank 0's `end` line (why the run failed, in the runtime's own words);
// "" when none came (a config error, a crash).
std::string endMessage(const std::string& out) {
    const auto j = metricLineOfType(out, "end");
    return j && j->contains("message") && (*j)["message"].is_string()
               ? (*j)["message"].get<std::string>()
               : std::string();
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

// Tags the trial's run with the sweep's id and, when `message` is given and the run is
// still marked running (its ranks were killed before they could end it), ends it so.
void settleRun(const TrialEnvironment& env, std::int64_t run_id, RunStatus status,
               const std::string& message) {
    if (run_id < 0)
        return;
    RunReader reader(RunStore::open(env.db_path));
    reader.addTag(run_id, "sweep-" + std::to_string(env.sweep_id));
    if (message.empty() || reader.run(run_id).status != RunStatus::Running)
        return;
    RunWriter writer(RunStore::open(env.db_path));
    writer.attachRun(run_id);
    writer.finish(status, message);
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
    nlohmann::json doc = nlohmann::json::parse(t.config_json);
    doc["run"]["steps"] = spec.warmup_steps + spec.measure_steps;
    doc["run"]["log_every"] = 1;
    doc["run"]["checkpoint_every"] = 0;
    doc["run"]["timeline_every"] = 0;
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
    const LaunchSpec ls = trialLaunchSpec(
        spec.launcher, env.program, t.world,
        {"--config", config_path.string(), "--db", env.db_path, "--run-name", run_name});
    const std::vector<std::string> argv = launchArgv(ls);
    const auto extra_env = launchEnvironment(ls, ::geteuid() == 0);

    const int out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0 || err_fd < 0) {
        if (out_fd >= 0)
            ::close(out_fd);
        if (err_fd >= 0)
            ::close(err_fd);
        throw SweepError(out_path.string() +
                         ": cannot create the trial's log files: " + std::strerror(errno));
    }
    std::vector<char*> cargv;
    for (const std::string& a : argv)
        cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);

    t.status = TrialStatus::Running;
    t.reason.clear();
    t.run_id = -1;
    t.started_at = unixNow();
    t.ended_at = kUnknown;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        const int in_fd = ::open("/dev/null", O_RDONLY);
        ::dup2(in_fd, 0);
        ::dup2(out_fd, 1);
        ::dup2(err_fd, 2);
        for (const auto& [k, v] : extra_env)
            ::setenv(k.c_str(), v.c_str(), 1);
        ::execvp(cargv[0], cargv.data());
        const std::string msg = std::string(argv[0]) + ": cannot execute: " + std::strerror(errno);
        (void)!::write(2, msg.data(), msg.size());
        ::_exit(127);
    }
    ::close(out_fd);
    ::close(err_fd);
    if (pid < 0)
        throw SweepError(std::string("cannot fork the trial's launcher: ") + std::strerror(errno));
    ::setpgid(pid, pid); // also here: the child may not have run yet
    t.pid = pid;
    if (env.on_started)
        env.on_started(t);

    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    int wstatus = 0;
    bool timed_out = false;
    bool stopped = false;
    double stop_sent = -1;
    for (;;) {
        const pid_t r = ::waitpid(pid, &wstatus, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (!timed_out && elapsed() > spec.trial_timeout_s) {
            timed_out = true;
            ::kill(-pid, SIGKILL);
        }
        if (env.stop && env.stop->load() && !stopped) {
            stopped = true;
            stop_sent = elapsed();
            ::kill(-pid, SIGTERM);
        }
        if (stopped && stop_sent >= 0 && elapsed() - stop_sent > kStopGraceS) {
            ::kill(-pid, SIGKILL);
            stop_sent = -1;
        }
        std::this_thread::sleep_for(kPoll);
    }
    // Whatever of the group outlived its launcher (a rank mpirun lost track of) goes too.
    ::kill(-pid, SIGKILL);
    t.pid = -1;
    t.ended_at = unixNow();
    const std::string out = readFile(out_path);
    const std::string err = readFile(err_path);
    t.run_id = runIdFromStdout(out);
    const int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    if (stopped && !timed_out) {
        t.status = TrialStatus::Pending; // run again on resume
        t.reason = "interrupted by the sweep's stop";
    } else if (timed_out) {
        t.status = TrialStatus::Timeout;
        char buf[96];
        std::snprintf(buf, sizeof buf, "killed at the trial timeout of %.0f s",
                      spec.trial_timeout_s);
        t.reason = buf;
    } else if (code == 0) {
        t.status = TrialStatus::Finished;
    } else {
        const auto failure = parseLaunchFailure(err);
        t.status = looksOutOfMemory(err, failure) ? TrialStatus::Oom : TrialStatus::Failed;
        const std::string own = endMessage(out);
        t.reason = "exit " + std::to_string(code) + ": " +
                   (!own.empty() ? own
                    : failure    ? failure->summary
                                 : lastLines(err, 2));
        if (t.reason.size() > 600)
            t.reason = t.reason.substr(0, 597) + "...";
    }
    if (t.run_id >= 0) {
        settleRun(env, t.run_id, stopped && !timed_out ? RunStatus::Stopped : RunStatus::Failed,
                  "zerolab-sweep: " + t.reason);
        if (t.status == TrialStatus::Finished) {
            measure(env.db_path, spec.warmup_steps, t);
            if (!std::isfinite(t.tokens_per_s)) {
                t.status = TrialStatus::Failed;
                t.reason = "no measured step was recorded";
            }
        }
    } else if (t.status == TrialStatus::Finished) {
        t.status = TrialStatus::Failed;
        t.reason = "the job printed no run line (stdout: " + out_path.string() + ")";
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
    const std::int64_t run_id =
        runIdFromStdout(readFile(trialPath(env.work_dir, env.sweep_id, t.idx, ".out")));
    settleRun(env, run_id, RunStatus::Failed,
              "zerolab-sweep: the sweep was interrupted during this trial; it runs again");
    t.status = TrialStatus::Pending;
    t.reason = "interrupted (run " + std::to_string(run_id) + "); run again on resume";
    t.pid = -1;
    t.run_id = -1;
    return t;
}

} // namespace zerolab
