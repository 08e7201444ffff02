// processAlive / processStopped from /proc/PID/stat's state letter.
#include "runtime/launch/process_state.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <string>

namespace zerolab {

namespace {

// The state letter of /proc/PID/stat ('R', 'S', 'T', 'Z', ...); 0 when there is none.
char processState(std::int64_t pid) {
    if (pid <= 0)
        return 0;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return 0;
    // The state follows the parenthesised command name: "pid (comm) S ...".
    const auto close = line.rfind(')');
    return close == std::string::npos || close + 2 >= line.size() ? '?' : line[close + 2];
}

} // namespace

bool processAlive(std::int64_t pid) {
    if (pid <= 0)
        return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        return false;
    const char state = processState(pid);
    return state != 0 && state != 'Z';
}

bool processStopped(std::int64_t pid) {
    const char state = processState(pid);
    return state == 'T' || state == 't';
}

} // namespace zerolab
