// Whether what a command-line tool printed reached its stdout: a full disk or
// `> /dev/full` fails only when the buffer is flushed, after every `<<` has succeeded.
// Every tool's main() ends through it, so a lost output is exit 1 with the error.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

namespace zerolab {

// Flushes std::cout and stdout; on a write error prints "TOOL: cannot write to stdout:
// REASON" on stderr and returns false. REASON is the errno of the flush that failed (std::cout's
// writes through stdout's buffer, or stdout's own), "a write failed" where an earlier flush
// did (its errno is not kept by stdio).
inline bool stdoutWritten(std::string_view tool) {
    errno = 0;
    std::cout.flush();
    const int coutErr = errno;
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int err = errno != 0 ? errno : coutErr;
    if (flushed && !std::ferror(stdout) && std::cout.good())
        return true;
    std::cerr << tool
              << ": cannot write to stdout: " << (err != 0 ? std::strerror(err) : "a write failed")
              << '\n';
    return false;
}

// A tool's exit code once its output is flushed: `code` as it is, or 1 where it was 0 and
// the output was lost.
inline int exitAfterOutput(std::string_view tool, int code) {
    return stdoutWritten(tool) || code != 0 ? code : 1;
}

} // namespace zerolab
