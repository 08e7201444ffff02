// For fuzzers whose reader takes a path: writes the input to a file in this process's
// own temporary folder ($TMPDIR or /tmp, "zerolab-fuzz-<pid>"), removed at exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace zerolab::fuzz {

inline const std::filesystem::path& fuzzDir() {
    struct Dir {
        std::filesystem::path path;
        Dir() {
            const char* tmp = std::getenv("TMPDIR");
            path = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                   ("zerolab-fuzz-" + std::to_string(::getpid()));
            std::filesystem::create_directories(path);
        }
        ~Dir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static const Dir dir;
    return dir.path;
}

// Replaces fuzzDir()/name with the input's bytes and returns its path.
inline std::string writeInput(const char* name, const std::uint8_t* data, std::size_t size) {
    const std::string path = (fuzzDir() / name).string();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size)) {
        std::perror(path.c_str());
        std::abort();
    }
    std::fclose(f);
    return path;
}

} // namespace zerolab::fuzz
