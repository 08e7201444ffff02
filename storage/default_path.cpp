// Resolution order of the default store path (docs/architecture.md, Contracts).
#include "storage/default_path.h"

#include <cstdlib>
#include <stdexcept>

namespace zerolab {

std::string defaultStorePath() {
    if (const char* db = std::getenv("ZEROLAB_DB"); db && *db)
        return db;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return std::string(xdg) + "/zerolab/runs.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/share/zerolab/runs.db";
    throw std::runtime_error("cannot place the run store: none of ZEROLAB_DB, XDG_DATA_HOME, "
                             "HOME is set; pass --db PATH");
}

} // namespace zerolab
