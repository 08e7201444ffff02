// TmpfsMount: mount(2) of a size-limited tmpfs on a TempDir, and umount2(2).
#include "tests/support/tmpfs_mount.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace zerolab::test {

TmpfsMount::TmpfsMount(std::size_t bytes) {
    try {
        m_dir.emplace("tmpfs");
    } catch (const std::runtime_error& e) {
        m_reason = "cannot create a folder for the tmpfs: " + std::string(e.what());
        return;
    }
    m_path = m_dir->path().string();
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
    if (m_mounted) // before m_dir removes the folder
        ::umount2(m_path.c_str(), MNT_DETACH);
}

} // namespace zerolab::test
