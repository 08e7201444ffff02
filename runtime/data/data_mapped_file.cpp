// MappedFile: open, fstat and mmap a file read-only, with errors that name it.
#include "runtime/data/data_mapped_file.h"

#include "runtime/data/data_loader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace zerolab {

namespace {

// Closes the descriptor on every path out of the constructor; the mapping keeps
// the file's pages alive on its own.
struct FdGuard {
    int fd;
    ~FdGuard() { ::close(fd); }
};

} // namespace

MappedFile::MappedFile(const std::string& path, const std::string& what) : m_path(path) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        throw DataError(what + " '" + path + "': cannot open: " + std::strerror(errno));
    }
    FdGuard guard{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        throw DataError(what + " '" + path + "': cannot stat: " + std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        throw DataError(what + " '" + path + "': not a regular file");
    }
    m_size = static_cast<std::size_t>(st.st_size);
    if (m_size == 0) {
        return;
    }
    void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        throw DataError(what + " '" + path + "': cannot map " + std::to_string(m_size) +
                        " bytes: " + std::strerror(errno));
    }
    m_data = static_cast<const unsigned char*>(p);
}

MappedFile::MappedFile(MappedFile&& o) noexcept {
    *this = std::move(o);
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
    if (this != &o) {
        release();
        m_path = std::move(o.m_path);
        m_data = std::exchange(o.m_data, nullptr);
        m_size = std::exchange(o.m_size, 0);
    }
    return *this;
}

MappedFile::~MappedFile() {
    release();
}

void MappedFile::release() {
    if (m_data) {
        ::munmap(const_cast<unsigned char*>(m_data), m_size);
    }
    m_data = nullptr;
    m_size = 0;
}

} // namespace zerolab
