// Lesson work folders: made with the owner's pid in the name, kept with a marker file,
// swept when their owner is gone (lstat: only real folders of this user, never a link).
#include "runtime/lab/lab_work_dir.h"

#include "runtime/lab/lesson.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPrefix = "zerolab-lesson-";
constexpr const char* kKeptMarker = "KEPT";

// The owner's pid in "zerolab-lesson-<pid>-XXXXXX"; 0 when the name has none.
long ownerPid(const std::string& name) {
    if (name.rfind(kPrefix, 0) != 0)
        return 0;
    const std::string rest = name.substr(std::strlen(kPrefix));
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash > 9 ||
        rest.find_first_not_of("0123456789") != dash)
        return 0;
    return std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
}

bool processGone(long pid) {
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

} // namespace

std::string makeLessonWorkDir(const std::string& tmp) {
    sweepLessonWorkDirs(tmp);
    std::string dir = (fs::path(tmp) / (kPrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(dir.data()))
        throw LessonError(dir +
                          ": cannot create the lesson's work directory: " + std::strerror(errno));
    return dir;
}

void keepLessonWorkDir(const std::string& dir) {
    std::ofstream(fs::path(dir) / kKeptMarker)
        << "kept by zerolab --run-lesson: a run failed or a check disagreed\n";
}

int sweepLessonWorkDirs(const std::string& tmp) {
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const long pid = ownerPid(name);
        struct stat st {};
        if (pid <= 0 || ::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != ::geteuid() || !processGone(pid))
            continue;
        std::error_code kept;
        if (fs::exists(it->path() / kKeptMarker, kept))
            continue;
        std::error_code gone;
        if (fs::remove_all(it->path(), gone) > 0 && !gone)
            ++removed;
    }
    return removed;
}

} // namespace zerolab
