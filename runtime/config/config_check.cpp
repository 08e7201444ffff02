// `zerolab-train --check-config`: resolve, print the resolved JSON or every error.
#include "runtime/config/config_check.h"

#include "runtime/config/config.h"

namespace zerolab {

int checkConfigCommand(const std::string& path, std::optional<int> world, std::ostream& out,
                       std::ostream& err) {
    const ConfigResult r = loadConfigFile(path, world);
    for (const ConfigDiagnostic& d : r.diagnostics)
        err << formatDiagnostic(path, d) << "\n";
    if (!r.ok())
        return 2;
    out << toJson(*r.config).dump(2) << "\n";
    return 0;
}

} // namespace zerolab
