// A fresh directory of this test process's own under the system temp folder (mkdtemp),
// removed with everything in it when the object goes. A name from the pid alone can be
// found again by a later process with the same pid, holding an old file.
#pragma once

#include <filesystem>
#include <string>

namespace zerolab::test {

class TempDir {
public:
    // <temp>/zerolab-<prefix>-XXXXXX; throws std::runtime_error when it cannot be made.
    explicit TempDir(const std::string& prefix = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    // path() / name, as a string (what the stores, loaders and argv lists take)
    std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

} // namespace zerolab::test
