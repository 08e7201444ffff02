// `zerolab-train --check-config FILE [--world N]` as a library function, so that the
// training main stays a thin argument parser and the command can be tested in-process.
#pragma once

#include <optional>
#include <ostream>
#include <string>

namespace zerolab {

// Resolves the config at `path`. On success prints the resolved config as JSON
// (indented, one document) on `out`, warnings on `err`, and returns 0. Otherwise
// prints every error (and warning) on `err` as "FILE: path: message" and returns 2.
int checkConfigCommand(const std::string& path, std::optional<int> world, std::ostream& out,
                       std::ostream& err);

} // namespace zerolab
