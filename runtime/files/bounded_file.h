// Whole-file reads of small untrusted text files (a config, a checkpoint's meta.json):
// only a regular file is read (a FIFO or /dev/zero is refused without blocking or
// reading forever), and at most kMaxTextFileBytes of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace zerolab {

// 16 MiB: a config or a meta.json is a few KiB; anything near this is not one.
inline constexpr std::int64_t kMaxTextFileBytes = std::int64_t{16} << 20;

// text is set exactly when error is empty. error names the problem without the path
// ("cannot open: No such file or directory", "not a regular file", "larger than 16 MiB
// (17825792 bytes)"), for the caller to prefix with the file's name.
struct BoundedFileText {
    std::optional<std::string> text;
    std::string error;
};

// Never throws on a file's account.
BoundedFileText readBoundedTextFile(const std::string& path,
                                    std::int64_t max_bytes = kMaxTextFileBytes);

} // namespace zerolab
