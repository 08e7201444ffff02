// Text -> JSON -> TrainConfig with diagnostics placed on lines. JSON syntax errors
// come from the parser's byte offset; bounds (depth, numbers beyond a double) and
// config findings from their JSON paths.
#include "gui/core/config_validation.h"

#include "gui/core/runtime_text.h"

#include "runtime/config/json_text.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace zerolab {

int ConfigValidation::errorCount() const {
    int n = 0;
    for (const auto& d : diagnostics)
        n += d.error ? 1 : 0;
    return n;
}

namespace {

int lineOfOffset(const QByteArray& utf8, qsizetype offset) {
    offset = std::clamp<qsizetype>(offset, 0, utf8.size());
    return int(utf8.left(offset).count('\n')) + 1;
}

} // namespace

int lineOfJsonPath(const QString& text, const QString& path) {
    if (path.isEmpty())
        return 0;
    static const QRegularExpression kIndex(QStringLiteral("\\[\\d+\\]"));
    QString plain = path;
    plain.remove(kIndex);
    qsizetype pos = 0;
    for (const QString& key : plain.split(QLatin1Char('.'), Qt::SkipEmptyParts)) {
        const qsizetype found = text.indexOf(QLatin1Char('"') + key + QLatin1Char('"'), pos);
        if (found < 0)
            return pos > 0 ? int(text.left(pos).count(QLatin1Char('\n'))) + 1 : 0;
        pos = found + 1;
    }
    return int(text.left(pos).count(QLatin1Char('\n'))) + 1;
}

ConfigValidation validateConfigText(const QString& text, std::optional<int> world) {
    ConfigValidation out;
    const QByteArray utf8 = text.toUtf8();
    JsonText<OrderedJson> parsed =
        parseJsonText<OrderedJson>(std::string_view(utf8.constData(), std::size_t(utf8.size())));
    if (const auto& e = parsed.error) {
        const QString message = QString::fromStdString(e->message);
        if (e->byte) {
            out.diagnostics.push_back(
                {true,
                 {},
                 QCoreApplication::translate("ConfigValidation", "JSON syntax: %1").arg(message),
                 lineOfOffset(utf8, qsizetype(*e->byte))});
        } else {
            const QString path = QString::fromStdString(e->path);
            out.diagnostics.push_back({true, path, message, lineOfJsonPath(text, path)});
        }
        return out;
    }
    out.doc = std::move(parsed.doc);
    // The runtime's validator takes nlohmann::json; key order does not matter to it.
    ConfigResult result = parseConfig(nlohmann::json(*out.doc), world, "editor");
    for (const auto& d : result.diagnostics) {
        const QString path = QString::fromStdString(d.path);
        out.diagnostics.push_back(
            {d.severity == Severity::Error, path, runtimeText(d.text), lineOfJsonPath(text, path)});
    }
    out.config = std::move(result.config);
    return out;
}

std::optional<TrainConfig> storedConfig(const std::string& json, int world) {
    if (json.empty())
        return std::nullopt;
    const auto doc = nlohmann::json::parse(json, nullptr, false);
    if (doc.is_discarded())
        return std::nullopt;
    return parseConfig(doc, world, "stored config").config;
}

std::optional<StagePlan> plannedStageForRun(const RunInfo& info) {
    try {
        if (const auto config = storedConfig(info.config_json, info.world))
            return predictRun(*config);
        if (info.params <= 0)
            return std::nullopt;
        PlanInput in;
        in.params = double(info.params);
        in.world = info.world;
        in.stage = info.stage;
        in.precision = info.precision == "bf16" ? Precision::Bf16Mixed : Precision::Fp32;
        return plan(in).stages[std::clamp(in.stage, 0, 3)];
    } catch (const PlanError&) {
        return std::nullopt;
    }
}

const Segment* segmentAt(const std::vector<Segment>& segments, std::int64_t step) {
    const Segment* found = nullptr;
    for (const Segment& s : segments)
        if (s.start_step <= step)
            found = &s;
    return found;
}

std::optional<MemBreakdown> predictedMemory(const RunInfo& info, const Segment* segment) {
    if (segment && segment->predicted)
        return segment->predicted;
    if (segment && segment->index > 0)
        return std::nullopt;
    const auto planned = plannedStageForRun(info);
    return planned ? std::optional<MemBreakdown>(planned->per_rank) : std::nullopt;
}

std::optional<double> predictedTotal(const RunInfo& info, const Segment* segment) {
    const auto m = predictedMemory(info, segment);
    return m ? std::optional<double>(double(m->total())) : std::nullopt;
}

} // namespace zerolab
