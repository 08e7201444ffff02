// The headless lesson runner's folder for run configs and logs: /tmp/zerolab-lesson-<pid>-*,
// named by the process that owns it so that the next runner can remove what a killed one
// (SIGKILL, a crash) left behind, as emulated hosts are swept (docs/lab.md).
#pragma once

#include <string>

namespace zerolab {

// Removes the leftovers under `tmp` (sweepLessonWorkDirs), then makes a new folder there for
// this process (mode 0700). Throws LessonError naming the path and the errno.
std::string makeLessonWorkDir(const std::string& tmp = "/tmp");

// Marks `dir` kept on purpose (a run failed or a check disagrees: its logs are to be read):
// no sweep removes it.
void keepLessonWorkDir(const std::string& dir);

// Removes every zerolab-lesson-<pid>-* folder under `tmp` that this user owns, whose pid
// is no longer a process and that was not kept. Symlinks and others' folders are left.
// Returns how many were removed.
int sweepLessonWorkDirs(const std::string& tmp = "/tmp");

} // namespace zerolab
