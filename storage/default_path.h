// Where the run store lives when no --db is given: $ZEROLAB_DB, else
// $XDG_DATA_HOME/zerolab/runs.db, else ~/.local/share/zerolab/runs.db.
#pragma once

#include <string>

namespace zerolab {

// The default store path (not created). Throws std::runtime_error when neither
// ZEROLAB_DB, XDG_DATA_HOME nor HOME is set.
std::string defaultStorePath();

} // namespace zerolab
