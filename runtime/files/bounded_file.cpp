// readBoundedTextFile: open without blocking, refuse what is not a regular file or is too
// large by fstat, then read no more than the bound (a file growing meanwhile included).
#include "runtime/files/bounded_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace zerolab {

namespace {

std::string tooLarge(std::int64_t size, std::int64_t max_bytes) {
    const std::string limit = max_bytes % (1 << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB"
                                                         : std::to_string(max_bytes) + " bytes";
    return "larger than " + limit + (size > 0 ? " (" + std::to_string(size) + " bytes)" : "");
}

class Fd {
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace

BoundedFileText readBoundedTextFile(const std::string& path, std::int64_t max_bytes) {
    const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
        return {std::nullopt, std::string("cannot open: ") + std::strerror(errno)};
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return {std::nullopt, std::string("cannot stat: ") + std::strerror(errno)};
    if (!S_ISREG(st.st_mode))
        return {std::nullopt, "not a regular file"};
    if (st.st_size > max_bytes)
        return {std::nullopt, tooLarge(st.st_size, max_bytes)};
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return {std::nullopt, std::string("cannot read: ") + std::strerror(errno)};
        if (n == 0)
            break;
        if (static_cast<std::int64_t>(text.size()) + n > max_bytes)
            return {std::nullopt, tooLarge(0, max_bytes)};
        text.append(buf, static_cast<std::size_t>(n));
    }
    return {std::move(text), {}};
}

} // namespace zerolab
