// parseConfig: walks the whole document, every section, collecting every
// diagnostic, then the checks that span sections. Also the diagnostic formatting
// and ConfigError shared by every caller.
#include "runtime/config/config_batch.h"
#include "runtime/config/config_monitors_parse.h"
#include "runtime/config/config_schema.h"
#include "runtime/config/config_sections.h"

#include <limits>

namespace zerolab {

std::string formatDiagnostic(const std::string& source_name, const ConfigDiagnostic& d) {
    std::string s = source_name + ": ";
    if (d.severity == Severity::Warning)
        s += "warning: ";
    if (!d.path.empty())
        s += d.path + ": ";
    return s + d.message;
}

namespace {

std::string joinErrors(const std::string& source_name, const std::vector<ConfigDiagnostic>& ds) {
    std::string s;
    for (const ConfigDiagnostic& d : ds) {
        if (d.severity != Severity::Error)
            continue;
        if (!s.empty())
            s += "\n";
        s += formatDiagnostic(source_name, d);
    }
    return s;
}

// Byte-level data (synthetic, text) needs a token for every byte value.
void checkVocabularyFitsData(const TrainConfig& c, Diagnostics& diags) {
    constexpr int kByteVocab = 256;
    if (c.data.type == DataType::Llmc || c.model.shape.vocab_size == 0 ||
        c.model.shape.vocab_size >= kByteVocab)
        return;
    diags.error(
        "model.vocab_size",
        Message(ZEROLAB_TR("ConfigCheck", "data.type \"%1\" uses bytes as tokens and needs "
                                          "vocab_size >= 256, got %2"),
                {std::string(toString(c.data.type)), std::to_string(c.model.shape.vocab_size)}));
}

} // namespace

ConfigError::ConfigError(const std::string& source_name, std::vector<ConfigDiagnostic> diagnostics)
    : std::runtime_error(joinErrors(source_name, diagnostics)),
      m_diagnostics(std::move(diagnostics)) {}

const nlohmann::json* sectionOf(const nlohmann::json& doc, const char* key, Diagnostics& diags) {
    auto it = doc.find(key);
    if (it == doc.end())
        return nullptr;
    if (!it->is_object()) {
        diags.error(key, expectedGot(Message(ZEROLAB_TR("ConfigCheck", "an object")), *it));
        return nullptr;
    }
    return &*it;
}

ConfigResult parseConfig(const nlohmann::json& doc, std::optional<int> world,
                         const std::string& source_name) {
    Diagnostics diags;
    if (!doc.is_object()) {
        diags.error("", Message(ZEROLAB_TR("ConfigCheck",
                                           "%1 must hold a JSON object at the top level, got %2"),
                                {source_name, describeJson(doc)}));
        return {std::nullopt, diags.take()};
    }
    checkKeys(doc, "", kTopLevelSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);

    TrainConfig c;
    SectionReader top(&doc, "", diags);
    const std::optional<BatchConfig> batch = resolveBatch(readBatchKeys(top), world, diags);
    if (batch)
        c.batch = *batch;

    // run and model first: "auto" values of the DeepSpeed sections come from them.
    parseRun(sectionOf(doc, "run", diags), diags, c.run);
    const nlohmann::json* model = sectionOf(doc, "model", diags);
    parseModel(model, diags, c.model);
    parseActivationCheckpointing(sectionOf(doc, "activation_checkpointing", diags),
                                 model != nullptr && model->contains("recompute"), diags, c.model);
    parseData(sectionOf(doc, "data", diags), diags, c.data);
    parseOptimizer(sectionOf(doc, "optimizer", diags), diags, c.optimizer);
    parseScheduler(sectionOf(doc, "scheduler", diags), c.optimizer, c.run, diags, c.scheduler);
    if (auto v = top.getNumber(
            "gradient_clipping", [](double x) { return x >= 0; },
            Message(ZEROLAB_TR("ConfigCheck", "a number >= 0 (0: off)"))))
        c.gradient_clipping = *v;
    c.precision = parsePrecision(doc, diags);
    c.grad_accum_fp32 = parseGradAccumFp32(sectionOf(doc, "data_types", diags), c.precision, diags);
    const nlohmann::json* zero = sectionOf(doc, "zero_optimization", diags);
    parseZero(zero, c.model, diags, c.zero);
    parseOffload(zero, c.zero.stage, diags, c.zero.offload);
    parseMonitors(doc, diags, c.monitors);
    checkZeroPlusPlus(c, world, diags);
    if (auto v = top.getInt("steps_per_print", 1, std::numeric_limits<int>::max()))
        c.steps_per_print = static_cast<int>(*v);
    if (auto v = top.getBool("wall_clock_breakdown"))
        c.wall_clock_breakdown = *v;

    checkVocabularyFitsData(c, diags);
    if (diags.hasErrors())
        return {std::nullopt, diags.take()};
    return {std::move(c), diags.take()};
}

} // namespace zerolab
