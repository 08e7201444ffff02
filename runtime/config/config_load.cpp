// Reading a config file: file errors (a missing, non-regular or over 16 MiB file), JSON syntax
// errors (line:column) and bounds (depth, numbers beyond a double, by JSON path) become diagnostics
// naming the file, then parseConfig does the rest.
#include "runtime/config/config.h"
#include "runtime/config/json_text.h"
#include "runtime/files/bounded_file.h"

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

} // namespace

ConfigResult loadConfigFile(const std::string& path, std::optional<int> world) {
    const BoundedFileText file = readBoundedTextFile(path);
    if (!file.text)
        return {std::nullopt,
                {makeDiagnostic(Severity::Error, "",
                                Message(ZEROLAB_TR("ConfigCheck", "cannot read config file: %1"),
                                        {file.error}))}};
    const std::string& text = *file.text;
    JsonText<nlohmann::json> parsed = parseJsonText<nlohmann::json>(text);
    if (const auto& e = parsed.error) {
        if (!e->byte)
            return {std::nullopt, {makeDiagnostic(Severity::Error, e->path, e->message)}};
        auto [line, column] = lineColumn(text, *e->byte);
        return {std::nullopt,
                {makeDiagnostic(
                    Severity::Error, "",
                    Message(ZEROLAB_TR("ConfigCheck", "line %1, column %2: invalid JSON: %3"),
                            {std::to_string(line), std::to_string(column), e->message}))}};
    }
    return parseConfig(*parsed.doc, world, path);
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
