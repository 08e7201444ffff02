// Whether this process still holds SQLite's shared lock on a store, as another process
// sees it: POSIX drops every lock a process holds on a file when any descriptor of that
// file is closed in it, and SQLite then takes the store for unused (storage and GUI tests).
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace zerolab {

// Forks a process that asks (F_GETLK) whether it could take a write lock on SQLite's
// shared-lock range of the database file (os_unix.c: SHARED_FIRST = 2^30 + 2, 510 bytes).
inline bool anotherProcessSeesASharedLock(const std::string& path) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        struct flock probe = {};
        probe.l_type = F_WRLCK;
        probe.l_whence = SEEK_SET;
        probe.l_start = (1L << 30) + 2;
        probe.l_len = 510;
        const bool locked = fd >= 0 && fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
        _exit(locked ? 0 : 1);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

} // namespace zerolab
