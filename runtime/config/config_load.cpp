// Reading a config file: file and JSON syntax errors become diagnostics naming the
// file and line:column, then parseConfig does the rest.
#include "runtime/config/config.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace zerolab {

namespace {

// 1-based line and column of the byte at 0-based `offset`.
std::pair<int, int> lineColumn(const std::string& text, std::size_t offset) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// nlohmann's what() without its "[json.exception.parse_error.101] parse error at
// line L, column C: " prefix (we print our own position).
std::string parseErrorReason(const std::string& what) {
    const std::size_t column = what.find("column ");
    if (column != std::string::npos) {
        const std::size_t colon = what.find(": ", column);
        if (colon != std::string::npos)
            return what.substr(colon + 2);
    }
    const std::size_t bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

} // namespace

ConfigResult loadConfigFile(const std::string& path, std::optional<int> world) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        return {std::nullopt,
                {{Severity::Error, "",
                  std::string("cannot open config file: ") +
                      (err ? std::strerror(err) : "unknown error")}}};
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is 1-based: the byte where parsing failed.
        auto [line, column] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        return {std::nullopt,
                {{Severity::Error, "",
                  "line " + std::to_string(line) + ", column " + std::to_string(column) +
                      ": invalid JSON: " + parseErrorReason(e.what())}}};
    }
    return parseConfig(doc, world, path);
}

TrainConfig loadConfigOrThrow(const std::string& path, std::optional<int> world,
                              std::vector<ConfigDiagnostic>* warnings) {
    ConfigResult r = loadConfigFile(path, world);
    if (!r.ok())
        throw ConfigError(path, std::move(r.diagnostics));
    if (warnings != nullptr)
        *warnings = std::move(r.diagnostics);
    return std::move(*r.config);
}

} // namespace zerolab
