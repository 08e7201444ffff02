// A job's process: fork + setpgid + execvp, polled with waitpid every 50 ms; the timeout
// SIGKILLs the group, a stop request SIGTERMs it (SIGKILL after the grace period), and
// whatever of the group outlived its launcher is killed at the end.
#include "runtime/launch/job_runner.h"

#include "runtime/launch/launch_failure.h"
#include "runtime/launch/launch_spec.h"
#include "runtime/launch/tagged_line.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace zerolab {

namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);

std::string readFile(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<nlohmann::json> metricLinesOfType(const std::string& out, std::string_view type,
                                              bool first_only) {
    std::vector<nlohmann::json> found;
    std::istringstream lines(out);
    for (std::string raw; std::getline(lines, raw);) {
        const std::string line = splitTaggedLine(raw).second;
        const auto brace = line.find('{');
        if (brace == std::string::npos)
            continue;
        auto j = nlohmann::json::parse(line.substr(brace), nullptr, false);
        if (j.is_object() && j.contains("type") && j["type"] == type) {
            found.push_back(std::move(j));
            if (first_only)
                break;
        }
    }
    return found;
}

std::int64_t runIdFromStdout(const std::string& out) {
    const auto j = metricLineOfType(out, "run");
    return j && j->contains("run_id") && (*j)["run_id"].is_number_integer()
               ? (*j)["run_id"].get<std::int64_t>()
               : -1;
}

} // namespace

std::optional<nlohmann::json> metricLineOfType(const std::string& out, std::string_view type) {
    auto found = metricLinesOfType(out, type, true);
    if (found.empty())
        return std::nullopt;
    return std::move(found.front());
}

std::optional<nlohmann::json> lastMetricLineOfType(const std::string& out, std::string_view type) {
    auto found = metricLinesOfType(out, type, false);
    if (found.empty())
        return std::nullopt;
    return std::move(found.back());
}

std::string endMessage(const std::string& out) {
    const auto j = metricLineOfType(out, "end");
    return j && j->contains("message") && (*j)["message"].is_string()
               ? (*j)["message"].get<std::string>()
               : std::string();
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

std::string jobFailureReason(const JobOutcome& job) {
    const auto failure = parseLaunchFailure(job.err);
    const std::string own = endMessage(job.out);
    std::string reason = "exit " + std::to_string(job.exit_code) + ": " +
                         (!own.empty() ? own
                          : failure    ? failure->summary
                                       : lastLines(job.err, 2));
    if (reason.size() > 600)
        reason = reason.substr(0, 597) + "...";
    return reason;
}

JobOutcome runJob(const JobRequest& request) {
    if (request.argv.empty())
        throw LaunchError("runJob: empty argv");
    const int out_fd =
        ::open(request.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err_fd =
        ::open(request.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0 || err_fd < 0) {
        const std::string why = std::strerror(errno);
        if (out_fd >= 0)
            ::close(out_fd);
        if (err_fd >= 0)
            ::close(err_fd);
        throw LaunchError(request.stdout_path + ": cannot create the job's log files: " + why);
    }
    std::vector<char*> cargv;
    for (const std::string& a : request.argv)
        cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);

    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        // The parent may have died before the prctl: then it is not our parent any more.
        if (request.end_with_parent &&
            (::prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || ::getppid() != parent))
            ::_exit(127);
        const int in_fd = ::open("/dev/null", O_RDONLY);
        ::dup2(in_fd, 0);
        ::dup2(out_fd, 1);
        ::dup2(err_fd, 2);
        for (const auto& [k, v] : request.env)
            ::setenv(k.c_str(), v.c_str(), 1);
        ::execvp(cargv[0], cargv.data());
        const std::string msg = std::string(cargv[0]) + ": cannot execute: " + std::strerror(errno);
        (void)!::write(2, msg.data(), msg.size());
        ::_exit(127);
    }
    ::close(out_fd);
    ::close(err_fd);
    if (pid < 0)
        throw LaunchError(std::string("cannot fork the job's launcher: ") + std::strerror(errno));
    ::setpgid(pid, pid); // also here: the child may not have run yet
    if (request.on_started)
        request.on_started(pid);

    JobOutcome job;
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    int wstatus = 0;
    double stop_sent = -1;
    for (;;) {
        const pid_t r = ::waitpid(pid, &wstatus, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (!job.timed_out && request.timeout_s > 0 && elapsed() > request.timeout_s) {
            job.timed_out = true;
            ::kill(-pid, SIGKILL);
        }
        if (request.stop && request.stop->load() && !job.stopped) {
            job.stopped = true;
            stop_sent = elapsed();
            ::kill(-pid, SIGTERM);
        }
        if (job.stopped && stop_sent >= 0 && elapsed() - stop_sent > request.stop_grace_s) {
            ::kill(-pid, SIGKILL);
            stop_sent = -1;
        }
        if (request.on_poll)
            request.on_poll();
        std::this_thread::sleep_for(kPoll);
    }
    // Whatever of the group outlived its launcher (a rank mpirun lost track of) goes too.
    ::kill(-pid, SIGKILL);
    job.exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    job.out = readFile(request.stdout_path);
    job.err = readFile(request.stderr_path);
    job.run_id = runIdFromStdout(job.out);
    return job;
}

} // namespace zerolab
