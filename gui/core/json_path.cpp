// Dotted-path helpers over nlohmann's JSON types, and a scanner that finds where a
// path's value sits in JSON text; keys never contain dots or escapes in our configs.
#include "gui/core/json_path.h"

#include <QStringList>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace zerolab {

const OrderedJson* jsonAt(const OrderedJson& doc, const QString& path) {
    const OrderedJson* node = &doc;
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

void jsonSet(OrderedJson& doc, const QString& path, OrderedJson value) {
    OrderedJson* node = &doc;
    for (const QString& key : path.split(QLatin1Char('.'))) {
        if (!node->is_object())
            *node = OrderedJson::object();
        node = &(*node)[key.toStdString()];
    }
    *node = std::move(value);
}

namespace {

bool eraseIn(OrderedJson& node, const QStringList& keys, int i) {
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

// Walks JSON text that is known to parse, to find the [begin, end) span of the value
// at a dotted path.
class SpanFinder {
public:
    explicit SpanFinder(const QString& text) : m_t(text) {}

    std::optional<std::pair<qsizetype, qsizetype>> find(const QStringList& keys) {
        m_i = 0;
        return valueAt(keys, 0);
    }

private:
    std::optional<std::pair<qsizetype, qsizetype>> valueAt(const QStringList& keys, int k) {
        skipSpace();
        if (k == keys.size()) {
            const qsizetype begin = m_i;
            skipValue();
            return std::make_pair(begin, m_i);
        }
        if (!at(u'{'))
            return std::nullopt;
        ++m_i;
        for (;;) {
            skipSpace();
            if (!at(u'"'))
                return std::nullopt; // '}' of an object without the key
            const qsizetype keyBegin = m_i + 1;
            skipString();
            const QStringView key(m_t.constData() + keyBegin, m_i - 1 - keyBegin);
            skipSpace();
            ++m_i; // ':'
            if (key == keys[k])
                return valueAt(keys, k + 1);
            skipSpace();
            skipValue();
            skipSpace();
            if (!at(u','))
                return std::nullopt;
            ++m_i;
        }
    }

    bool at(char16_t c) const { return m_i < m_t.size() && m_t[m_i] == QChar(c); }
    void skipSpace() {
        while (m_i < m_t.size() && m_t[m_i].isSpace())
            ++m_i;
    }
    void skipString() {
        for (++m_i; m_i < m_t.size() && m_t[m_i] != QLatin1Char('"'); ++m_i)
            if (m_t[m_i] == QLatin1Char('\\'))
                ++m_i;
        ++m_i;
    }
    void skipValue() {
        if (at(u'"')) {
            skipString();
            return;
        }
        int depth = 0;
        while (m_i < m_t.size()) {
            const QChar c = m_t[m_i];
            if (c == QLatin1Char('"')) {
                skipString();
                continue;
            }
            if (c == QLatin1Char('{') || c == QLatin1Char('['))
                ++depth;
            else if (c == QLatin1Char('}') || c == QLatin1Char(']'))
                --depth;
            if (depth < 0 || (depth == 0 && (c == QLatin1Char(',') || c.isSpace())))
                return;
            ++m_i;
            if (depth == 0 && (c == QLatin1Char('}') || c == QLatin1Char(']')))
                return;
        }
    }

    const QString& m_t;
    qsizetype m_i = 0;
};

} // namespace

void jsonErase(OrderedJson& doc, const QString& path) {
    eraseIn(doc, path.split(QLatin1Char('.')), 0);
}

QString patchJsonText(const QString& text, const OrderedJson& before, const OrderedJson& after) {
    const QString whole = QString::fromStdString(after.dump(2)) + QLatin1Char('\n');
    const auto old = flattenJson(nlohmann::json(before));
    const auto now = flattenJson(nlohmann::json(after));
    const auto sameKey = [](const auto& a, const auto& b) { return a.first == b.first; };
    if (old.size() != now.size() || !std::equal(old.begin(), old.end(), now.begin(), sameKey))
        return whole;
    SpanFinder finder(text);
    std::vector<std::pair<std::pair<qsizetype, qsizetype>, QString>> edits;
    for (auto o = old.begin(), n = now.begin(); o != old.end(); ++o, ++n) {
        if (o->second == n->second)
            continue;
        const QString path = QString::fromStdString(n->first);
        const auto span = finder.find(path.split(QLatin1Char('.')));
        const OrderedJson* value = jsonAt(after, path);
        if (!span || !value)
            return whole;
        edits.push_back({*span, QString::fromStdString(value->dump())});
    }
    // From the end backwards, so the earlier spans stay where they were found.
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.first.first > b.first.first; });
    QString out = text;
    for (const auto& [span, value] : edits)
        out.replace(span.first, span.second - span.first, value);
    return out;
}

std::map<std::string, std::string> flattenJson(const nlohmann::json& doc) {
    std::map<std::string, std::string> out;
    flattenInto(doc, {}, out);
    return out;
}

} // namespace zerolab
