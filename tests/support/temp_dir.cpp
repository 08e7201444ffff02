// TempDir: mkdtemp on the way in, remove_all on the way out.
#include "tests/support/temp_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace zerolab::test {

TempDir::TempDir(const std::string& prefix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("zerolab-" + prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
    m_path = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

} // namespace zerolab::test
