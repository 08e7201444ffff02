// TmpfsMount: mount(2) of a size-limited tmpfs, umount2(2) and the folder's removal.
#include "tests/support/tmpfs_mount.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace zerolab::test {

TmpfsMount::TmpfsMount(std::size_t bytes) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/zerolab-tmpfs-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
        m_reason = "cannot create a folder for the tmpfs: " + std::string(std::strerror(errno));
        return;
    }
    m_path = templ;
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", m_path.c_str(), "tmpfs", 0, options.c_str()) != 0) {
        m_reason = "mount -t tmpfs is not permitted here (" + std::string(std::strerror(errno)) +
                   "); the disk-full tests need root";
        return;
    }
    m_mounted = true;
}

bool TmpfsMount::remountReadOnly() {
    if (::mount("tmpfs", m_path.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0)
        return true;
    m_reason =
        "mount -o remount,ro is not permitted here (" + std::string(std::strerror(errno)) + ")";
    return false;
}

TmpfsMount::~TmpfsMount() {
    if (m_mounted)
        ::umount2(m_path.c_str(), MNT_DETACH);
    if (!m_path.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
}

} // namespace zerolab::test
