// A small tmpfs mounted on a fresh folder for the disk-full tests, unmounted (and the
// folder removed) on destruction. Mounting needs root (CI and the tests run as root);
// where it is not permitted, ok() is false and reason() says why, for GTEST_SKIP.
#pragma once

#include "tests/support/temp_dir.h"

#include <cstddef>
#include <optional>
#include <string>

namespace zerolab::test {

class TmpfsMount {
public:
    // A tmpfs of `bytes` (rounded up to pages by the kernel) on a new TempDir.
    explicit TmpfsMount(std::size_t bytes);
    ~TmpfsMount();
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    bool ok() const { return m_mounted; }
    const std::string& reason() const { return m_reason; }
    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }
    // Remounts it read-only (mount -o remount,ro); false with reason() set when refused.
    bool remountReadOnly();

private:
    std::optional<TempDir> m_dir;
    std::string m_path;
    std::string m_reason;
    bool m_mounted = false;
};

} // namespace zerolab::test
