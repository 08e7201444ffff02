// Writing a file (a machine profile, a safetensors model) whole or not at all: a temporary
// file in the same folder, written, fsynced and renamed over the path, so that a full
// disk, a read-only mount or a crash half-way leaves no file, or the previous one, and is
// said.
#pragma once

#include <functional>
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

// Appends bytes to the file being written: "" on success, else why (as replaceFile says it).
using FileAppend = std::function<std::string(std::string_view bytes)>;

// replaceFile for content too large to hold at once (gigabytes of weights): `produce` is
// called once with an append function and hands the content over in pieces; it returns ""
// when all is written, else why it stopped (an append's failure, or its own), and then
// no temporary file is left and `path` is as it was. Never throws on the file's account;
// an exception from `produce` removes the temporary file and propagates.
std::string replaceFileWith(const std::string& path,
                            const std::function<std::string(const FileAppend& append)>& produce);

} // namespace zerolab
