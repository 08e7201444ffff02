// Dotted-path access to nlohmann::json objects ("zero_optimization.stage"), and the
// flattening of a document into path -> value rows that compare's diff table shows.
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <string>

namespace zerolab {

// The value at a dotted path of nested objects, or nullptr.
const nlohmann::json* jsonAt(const nlohmann::json& doc, const QString& path);
// Sets the value, creating objects along the way (a non-object in the way is replaced).
void jsonSet(nlohmann::json& doc, const QString& path, nlohmann::json value);
// Removes the key; drops objects left empty by the removal.
void jsonErase(nlohmann::json& doc, const QString& path);
// Every leaf (arrays are leaves, shown as compact JSON) keyed by its dotted path.
std::map<std::string, std::string> flattenJson(const nlohmann::json& doc);

} // namespace zerolab
