// Writing a small text file (a machine profile) whole or not at all: a temporary file in
// the same folder, written, fsynced and renamed over the path, so that a full disk, a
// read-only mount or a crash half-way leaves no file, or the previous one, and is said.
#pragma once

#include <string>
#include <string_view>

namespace zerolab {

// Where `path` cannot be written, why, without the path ("its folder does not exist: No
// such file or directory (errno 2)", "not a regular file"), or "" where it can be: checked
// before minutes of work, so that a bad path is said before anything runs.
std::string fileWriteProblem(const std::string& path);

// Writes `text` to `path` (a symlink is followed: its target is replaced). Returns "" on
// success, else why, without the path (naming the step and its errno: "write failed: No
// space left on device (errno 28)"); on failure no temporary file is left and `path` is as
// it was. Never throws on the file's account.
std::string replaceFile(const std::string& path, std::string_view text);

} // namespace zerolab
