// Dotted-path access to the Setup tab's JSON document ("zero_optimization.stage"),
// the patch that carries a form edit into the user's text without reordering or
// reformatting it, and the flattening of a document into path -> value rows that
// compare's diff table shows.
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <string>

namespace zerolab {

// The editor's document keeps the user's key order (nlohmann::json sorts keys).
using OrderedJson = nlohmann::ordered_json;

// The value at a dotted path of nested objects, or nullptr.
const OrderedJson* jsonAt(const OrderedJson& doc, const QString& path);
// Sets the value, creating objects along the way (a non-object in the way is replaced).
void jsonSet(OrderedJson& doc, const QString& path, OrderedJson value);
// Removes the key; drops objects left empty by the removal.
void jsonErase(OrderedJson& doc, const QString& path);
// `text` (which parses to `before`) changed to say `after`. When the edit only changed
// values, each changed value is replaced in place and every other character is kept;
// when it added or removed keys, `after` is printed whole (2-space indent, the
// document's key order).
QString patchJsonText(const QString& text, const OrderedJson& before, const OrderedJson& after);
// Every leaf (arrays are leaves, shown as compact JSON) keyed by its dotted path.
std::map<std::string, std::string> flattenJson(const nlohmann::json& doc);

} // namespace zerolab
