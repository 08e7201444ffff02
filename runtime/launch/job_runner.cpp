// A job's process: fork + setpgid + execve (path and environment prepared before the fork), polled
// with waitpid every 50 ms; the timeout SIGKILLs the group, a stop request SIGTERMs it (SIGKILL
// after the grace period), and whatever of the group outlived its launcher is killed at the end.
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

// The child of a threaded process may only call async-signal-safe functions between fork and
// exec (another thread may hold the malloc or environment lock), so its environment, the
// program's path and its error message are all prepared here, before the fork.
std::vector<std::string>
childEnvironment(const std::vector<std::pair<std::string, std::string>>& added) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view key = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const auto& kv : added)
            replaced = replaced || kv.first == key;
        if (!replaced)
            env.emplace_back(entry);
    }
    for (const auto& [k, v] : added)
        env.push_back(k + "=" + v);
    return env;
}

// execvp's search, done in the parent: the first executable PATH entry, else the name as is
// (execve then fails and the child reports it).
std::string resolveProgram(const std::string& name, const std::vector<std::string>& env) {
    if (name.find('/') != std::string::npos)
        return name;
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    for (const std::string& e : env)
        if (e.rfind("PATH=", 0) == 0)
            path = e.substr(5);
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return name;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> p;
    for (const std::string& s : strings)
        p.push_back(const_cast<char*>(s.c_str()));
    p.push_back(nullptr);
    return p;
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
    const std::vector<char*> cargv = pointers(request.argv);
    const std::vector<std::string> env = childEnvironment(request.env);
    const std::vector<char*> cenv = pointers(env);
    const std::string program = resolveProgram(request.argv.front(), env);
    const std::string not_found = request.argv.front() + ": cannot execute: ";
    const std::string no_cwd = request.cwd + ": cannot enter the job's folder\n";

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
        if (!request.cwd.empty() && ::chdir(request.cwd.c_str()) != 0) {
            (void)!::write(2, no_cwd.data(), no_cwd.size());
            ::_exit(127);
        }
        ::execve(program.c_str(), cargv.data(), cenv.data());
        const char* why = errno == ENOENT   ? "No such file or directory\n"
                          : errno == EACCES ? "Permission denied\n"
                                            : "exec failed\n";
        (void)!::write(2, not_found.data(), not_found.size());
        (void)!::write(2, why, std::strlen(why));
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
