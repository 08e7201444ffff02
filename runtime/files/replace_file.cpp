// replaceFile, replaceFileWith: a temporary file beside the target, written, fsynced,
// renamed over it, the folder fsynced (replace_file.h).
#include "runtime/files/replace_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

std::string errnoText(int err) {
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

// The file written: a symlink's target, else the path itself.
std::string writtenPath(const std::string& path) {
    std::error_code ec;
    if (fs::is_symlink(path, ec)) {
        const fs::path target = fs::weakly_canonical(path, ec);
        if (!ec)
            return target.string();
    }
    return path;
}

std::string folderOf(const std::string& path) {
    const fs::path folder = fs::path(path).parent_path();
    return folder.empty() ? std::string(".") : folder.string();
}

// One step's failure: its name and errno, the temporary file removed.
std::string failed(const std::string& step, int fd, const std::string& tmp) {
    const int err = errno;
    if (fd >= 0)
        ::close(fd);
    ::unlink(tmp.c_str());
    return step + ": " + errnoText(err);
}

} // namespace

std::string fileWriteProblem(const std::string& path) {
    if (path.empty())
        return "an empty path";
    const std::string target = writtenPath(path);
    struct stat st = {};
    if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return "not a regular file (the file is written beside it and renamed over it)";
    const std::string folder = folderOf(target);
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        const int err = errno;
        return (err == ENOENT ? std::string("its folder does not exist: ")
                              : "cannot write in its folder " + folder + ": ") +
               errnoText(err);
    }
    return {};
}

std::string replaceFile(const std::string& path, std::string_view text) {
    return replaceFileWith(path, [text](const FileAppend& append) { return append(text); });
}

std::string replaceFileWith(const std::string& path,
                            const std::function<std::string(const FileAppend& append)>& produce) {
    if (std::string problem = fileWriteProblem(path); !problem.empty())
        return problem;
    const std::string target = writtenPath(path);
    std::string tmp =
        (fs::path(folderOf(target)) / ("." + fs::path(target).filename().string() + ".tmp-XXXXXX"))
            .string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        return "cannot create a temporary file in " + folderOf(target) + ": " + errnoText(errno);
    if (::fchmod(fd, 0644) != 0)
        return failed("chmod of " + tmp + " failed", fd, tmp);
    const FileAppend append = [fd](std::string_view bytes) -> std::string {
        for (std::size_t at = 0; at < bytes.size();) {
            const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return "write failed: " + errnoText(n == 0 ? EIO : errno);
            at += static_cast<std::size_t>(n);
        }
        return {};
    };
    std::string produced;
    try {
        produced = produce(append);
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (!produced.empty()) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return produced;
    }
    if (::fsync(fd) != 0)
        return failed("fsync failed", fd, tmp);
    if (::close(fd) != 0)
        return failed("close failed", -1, tmp);
    if (::rename(tmp.c_str(), target.c_str()) != 0)
        return failed("cannot rename " + tmp + " over it", -1, tmp);
    // The rename itself made durable.
    const int dir = ::open(folderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        const bool synced = ::fsync(dir) == 0;
        const int err = errno;
        ::close(dir);
        if (!synced)
            return "fsync of its folder failed: " + errnoText(err);
    }
    return {};
}

} // namespace zerolab
