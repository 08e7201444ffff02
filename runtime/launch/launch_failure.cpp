// Patterns of Open MPI 4 and Slurm failure messages, each mapped to a summary that
// says what happened and what to do. Matching is by regular expression over the
// whole text, most specific first, because mpirun prints several boxes at once.
#include "runtime/launch/launch_failure.h"

#include "runtime/launch/tagged_line.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <regex>

namespace zerolab {

namespace {

std::string firstMatch(const std::string& text, const std::regex& re, int group = 1) {
    std::smatch m;
    return std::regex_search(text, m, re) ? m[group].str() : std::string();
}

// A number the text gives (a rank, pid, signal or exit code), or `unknown` when it does
// not fit T: the text is whatever a job printed, and std::stoi would throw.
template <typename T> T numberOr(const std::string& digits, T unknown) {
    T v{};
    const char* end = digits.data() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.data(), end, v);
    return ec == std::errc() && ptr == end ? v : unknown;
}

bool contains(const std::string& text, const char* needle) {
    return text.find(needle) != std::string::npos;
}

LaunchFailure make(LaunchFailureKind kind, std::string summary, std::string detail = {}) {
    LaunchFailure f;
    f.kind = kind;
    f.summary = std::move(summary);
    f.detail = std::move(detail);
    return f;
}

std::optional<LaunchFailure> rankSignaled(const std::string& text) {
    static const std::regex re(
        R"(process rank (\d+) with PID (\d+) on node (\S+) exited on signal (\d+) \(([^)]*)\))");
    std::smatch m;
    if (!std::regex_search(text, m, re))
        return std::nullopt;
    LaunchFailure f;
    f.kind = LaunchFailureKind::RankSignaled;
    f.rank = numberOr(m[1].str(), -1);
    f.pid = numberOr(m[2].str(), -1L);
    f.host = m[3].str();
    f.signal = numberOr(m[4].str(), -1);
    f.signal_name = m[5].str();
    f.detail = m[0].str();
    f.summary = "Rank " + m[1].str() + " (pid " + m[2].str() + " on " + f.host +
                ") was ended by signal " + m[4].str() + " (" + f.signal_name +
                "); mpirun then stopped the other ranks.";
    if (f.signal == 9)
        f.summary += " Signal 9 is a kill from outside the job, often the out-of-memory killer.";
    return f;
}

// The ranks' own last words before mpirun's report (its first box of dashes): the last
// line before it that is not one of Open MPI's "[host:pid] ..." lines, with every
// --tag-output prefix ("[1,0]<stderr>:", also mid-line where a rank wrote a line in
// pieces) removed. Empty when there is none.
std::string lastRankMessage(const std::string& text) {
    static const std::regex ompi(R"(^\[[^\]\s]+:\d+\])");
    std::string last;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string line = removeOutputTags(std::string_view(text).substr(pos, end - pos));
        pos = end + 1;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos)
            continue;
        line = line.substr(first);
        if (line.rfind("----", 0) == 0 || contains(line, "mpirun detected") ||
            contains(line, "Primary job"))
            break; // mpirun's own report starts: what came before is the ranks' own
        if (!std::regex_search(line, ompi))
            last = line;
    }
    while (!last.empty() && (last.back() == '\r' || last.back() == ' '))
        last.pop_back();
    return last;
}

std::optional<LaunchFailure> rankExited(const std::string& text) {
    static const std::regex proc(R"(Process name:\s*\[\[\d+,\d+\],(\d+)\])");
    static const std::regex code(R"(Exit code:\s*(-?\d+))");
    if (!contains(text, "exited with non-zero status") &&
        !contains(text, "returned\na non-zero exit code"))
        return std::nullopt;
    LaunchFailure f;
    f.kind = LaunchFailureKind::RankExited;
    const std::string rank = firstMatch(text, proc);
    const std::string exit = firstMatch(text, code);
    if (!rank.empty())
        f.rank = numberOr(rank, -1);
    if (!exit.empty())
        f.exit_code = numberOr(exit, -1);
    f.detail = lastRankMessage(text);
    f.summary = (rank.empty() ? std::string("A rank") : "Rank " + rank) + " exited" +
                (exit.empty() ? std::string(" with an error") : " with code " + exit) +
                (f.detail.empty() ? "; mpirun stopped the job. The ranks' own messages above "
                                    "say why."
                                  : ": " + f.detail);
    return f;
}

} // namespace

const char* launchFailureKindName(LaunchFailureKind kind) {
    static constexpr std::array<const char*, 10> kNames = {
        "RankSignaled",  "RankExited", "ExecutableMissing",   "LaunchFailed",    "NotEnoughSlots",
        "HostfileError", "RunAsRoot",  "NetworkOrPermission", "LauncherMissing", "Unknown"};
    return kNames[static_cast<std::size_t>(kind)];
}

LaunchFailure launcherMissing(const std::string& launcher) {
    return make(LaunchFailureKind::LauncherMissing,
                "Cannot start '" + launcher +
                    "': no such program. Install Open MPI (Debian: openmpi-bin) or set the "
                    "launcher path in Setup > Launcher.",
                launcher);
}

std::optional<LaunchFailure> parseLaunchFailure(const std::string& text) {
    if (auto f = rankSignaled(text))
        return f;
    static const std::regex exe(R"(Executable:\s*(\S+))");
    static const std::regex noExe(R"(could not access\s+or execute an executable)");
    if (std::regex_search(text, noExe)) {
        const std::string path = firstMatch(text, exe);
        return make(LaunchFailureKind::ExecutableMissing,
                    "mpirun could not start '" + path +
                        "': the file is missing or not executable on the node. Build it "
                        "(ninja zerolab-train) or fix its path.",
                    path);
    }
    if (contains(text, "not enough slots available")) {
        static const std::regex n(R"(satisfy the (\d+)\s+slots)");
        const std::string slots = firstMatch(text, n);
        return make(LaunchFailureKind::NotEnoughSlots,
                    "Not enough slots for " + (slots.empty() ? std::string("the") : slots) +
                        " ranks: turn on oversubscribe, lower the world size, or add slots to "
                        "the hostfile.",
                    slots);
    }
    static const std::regex hostfile(R"((?:unable to open|parse error in) the hostfile:\s*(\S+))");
    if (contains(text, "the hostfile")) {
        const std::string path = firstMatch(text, hostfile);
        const bool parse = contains(text, "parse error in the hostfile");
        static const std::regex line(R"(line number (\d+))");
        const std::string l = firstMatch(text, line);
        return make(LaunchFailureKind::HostfileError,
                    parse ? "The hostfile " + path + " has a syntax error" +
                                (l.empty() ? std::string() : " on line " + l) +
                                "; each line is 'host slots=N'."
                          : "Cannot open the hostfile " + path + "; check the path.",
                    path);
    }
    if (contains(text, "attempt to run as root"))
        return make(LaunchFailureKind::RunAsRoot,
                    "mpirun refuses to run as root without OMPI_ALLOW_RUN_AS_ROOT=1 and "
                    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; turn on 'root overrides' in the "
                    "launcher settings.");
    if (auto f = rankExited(text))
        return f;
    static const std::regex net(
        R"((Address already in use|bind\(\) failed|Connection refused|Permission denied|No route to host|unable to reach))");
    const std::string netHit = firstMatch(text, net);
    if (!netHit.empty())
        return make(LaunchFailureKind::NetworkOrPermission,
                    "The launcher reported '" + netHit +
                        "': a port, network or permission problem between the launcher and "
                        "the ranks. Check the hosts, firewalls and file permissions.",
                    netHit);
    if (contains(text, "mpirun was unable to launch") || contains(text, "failed to start") ||
        contains(text, "srun: error"))
        return make(LaunchFailureKind::LaunchFailed,
                    "The launcher could not start the ranks; its message is in the log.");
    return std::nullopt;
}

} // namespace zerolab
