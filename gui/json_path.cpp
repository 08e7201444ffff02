// Dotted-path helpers over nlohmann::json; keys never contain dots in our configs.
#include "gui/json_path.h"

#include <QStringList>

namespace zerolab {

const nlohmann::json* jsonAt(const nlohmann::json& doc, const QString& path) {
    const nlohmann::json* node = &doc;
    for (const QString& key : path.split(QLatin1Char('.'))) {
        if (!node->is_object())
            return nullptr;
        const auto it = node->find(key.toStdString());
        if (it == node->end())
            return nullptr;
        node = &*it;
    }
    return node;
}

void jsonSet(nlohmann::json& doc, const QString& path, nlohmann::json value) {
    nlohmann::json* node = &doc;
    for (const QString& key : path.split(QLatin1Char('.'))) {
        if (!node->is_object())
            *node = nlohmann::json::object();
        node = &(*node)[key.toStdString()];
    }
    *node = std::move(value);
}

namespace {
bool eraseIn(nlohmann::json& node, const QStringList& keys, int i) {
    if (!node.is_object())
        return false;
    const std::string key = keys[i].toStdString();
    const auto it = node.find(key);
    if (it == node.end())
        return false;
    if (i + 1 == keys.size()) {
        node.erase(it);
        return true;
    }
    const bool erased = eraseIn(*it, keys, i + 1);
    if (erased && it->is_object() && it->empty())
        node.erase(it);
    return erased;
}

void flattenInto(const nlohmann::json& node, const std::string& prefix,
                 std::map<std::string, std::string>& out) {
    if (node.is_object() && !node.empty()) {
        for (auto it = node.begin(); it != node.end(); ++it)
            flattenInto(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), out);
        return;
    }
    out[prefix] = node.is_string() ? node.get<std::string>() : node.dump();
}
} // namespace

void jsonErase(nlohmann::json& doc, const QString& path) {
    eraseIn(doc, path.split(QLatin1Char('.')), 0);
}

std::map<std::string, std::string> flattenJson(const nlohmann::json& doc) {
    std::map<std::string, std::string> out;
    flattenInto(doc, {}, out);
    return out;
}

} // namespace zerolab
