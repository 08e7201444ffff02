// DeepSpeed's monitoring sections (tensorboard, csv_monitor, comms_logger,
// flops_profiler; wandb and comet warn) and zero_optimization's offload_optimizer /
// offload_param, with DeepSpeed's key names and defaults; and their JSON for toJson.
#include "runtime/config/config_choices.h"
#include "runtime/config/config_monitors_parse.h"
#include "runtime/config/config_schema.h"

#include <algorithm>
#include <array>
#include <limits>

namespace zerolab {

namespace {

constexpr std::array<std::string_view, 3> kMonitorOutputKeys = {"enabled", "output_path",
                                                                "job_name"};
constexpr std::array<std::string_view, 5> kCommsLoggerKeys = {"enabled", "verbose", "prof_all",
                                                              "prof_ops", "debug"};
constexpr std::array<std::string_view, 6> kFlopsProfilerKeys = {
    "enabled", "profile_step", "module_depth", "top_modules", "detailed", "output_file"};
constexpr std::array<std::string_view, 1> kFlopsProfilerIgnored = {"recompute_fwd_factor"};
constexpr std::array<std::string_view, 2> kOffloadKeys = {"device", "nvme_path"};
constexpr std::array<std::string_view, 8> kOffloadIgnored = {
    "pin_memory", "buffer_count",  "buffer_size",    "max_in_cpu",
    "fast_init",  "pipeline_read", "pipeline_write", "ratio",
};
// DeepSpeed's names of the collectives zerolab runs (deepspeed.comm's log names).
constexpr std::array<std::string_view, 4> kCommOpNames = {"all_reduce", "reduce_scatter_tensor",
                                                          "all_gather_into_tensor", "broadcast"};

const SectionSchema kMonitorOutputSchema{kMonitorOutputKeys, {}};
const SectionSchema kCommsLoggerSchema{kCommsLoggerKeys, {}};
const SectionSchema kFlopsProfilerSchema{kFlopsProfilerKeys, kFlopsProfilerIgnored};
const SectionSchema kOffloadSchema{kOffloadKeys, kOffloadIgnored};

void parseMonitorOutput(const nlohmann::json* section, const char* path, Diagnostics& diags,
                        MonitorOutput& out) {
    if (section == nullptr)
        return;
    checkKeys(*section, path, kMonitorOutputSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getBool("enabled"))
        out.enabled = *v;
    if (auto v = r.getString("output_path"))
        out.output_path = *v;
    if (auto v = r.getString("job_name")) {
        if (v->empty() || v->find('/') != std::string::npos || *v == "." || *v == "..")
            r.typeError("job_name",
                        Message(ZEROLAB_TR("ConfigCheck", "a non-empty folder name without '/'")));
        else
            out.job_name = *v;
    }
}

void parseCommsLogger(const nlohmann::json* section, Diagnostics& diags, CommsLoggerConfig& out) {
    if (section == nullptr)
        return;
    const char* path = "comms_logger";
    checkKeys(*section, path, kCommsLoggerSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getBool("enabled"))
        out.enabled = *v;
    if (auto v = r.getBool("verbose"))
        out.verbose = *v;
    if (auto v = r.getBool("prof_all"))
        out.prof_all = *v;
    if (auto v = r.getBool("debug"))
        out.debug = *v;
    const nlohmann::json* ops = r.raw("prof_ops");
    if (ops == nullptr)
        return;
    if (!ops->is_array()) {
        r.typeError("prof_ops", Message(ZEROLAB_TR("ConfigCheck", "an array of collective names")));
        return;
    }
    for (std::size_t i = 0; i < ops->size(); ++i) {
        const nlohmann::json& op = (*ops)[i];
        const std::string at = r.pathOf("prof_ops") + "[" + std::to_string(i) + "]";
        if (!op.is_string()) {
            diags.error(at, expectedGot(Message(ZEROLAB_TR("ConfigCheck", "a string")), op));
            continue;
        }
        const std::string name = op.get<std::string>();
        if (std::find(kCommOpNames.begin(), kCommOpNames.end(), name) == kCommOpNames.end())
            diags.warning(at, Message(ZEROLAB_TR("ConfigCheck",
                                                 "%1 is not a collective zerolab runs "
                                                 "(all_reduce, reduce_scatter_tensor, "
                                                 "all_gather_into_tensor, broadcast); it never "
                                                 "appears%2"),
                                      {describeJson(op), didYouMean(name, kCommOpNames)}));
        out.prof_ops.push_back(name);
    }
}

void parseFlopsProfiler(const nlohmann::json* section, Diagnostics& diags,
                        FlopsProfilerConfig& out) {
    if (section == nullptr)
        return;
    const char* path = "flops_profiler";
    constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
    checkKeys(*section, path, kFlopsProfilerSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getBool("enabled"))
        out.enabled = *v;
    if (auto v = r.getInt("profile_step", 1, kIntMax))
        out.profile_step = static_cast<int>(*v);
    if (auto v = r.getInt("module_depth", -1, kIntMax))
        out.module_depth = static_cast<int>(*v);
    if (auto v = r.getInt("top_modules", 1, kIntMax))
        out.top_modules = static_cast<int>(*v);
    if (auto v = r.getBool("detailed"))
        out.detailed = *v;
    // DeepSpeed's default is None; null is accepted as "not given".
    if (const nlohmann::json* f = r.raw("output_file"); f != nullptr && !f->is_null())
        if (auto v = r.getString("output_file"))
            out.output_file = *v;
}

// What wandb and comet would send over the network: not done, the files are written.
void warnRemoteMonitor(const nlohmann::json& doc, const char* key, Diagnostics& diags) {
    if (doc.contains(key))
        diags.warning(key, Message(ZEROLAB_TR("ConfigCheck",
                                              "ignored: zerolab sends nothing over the network; "
                                              "turn on \"tensorboard\" or \"csv_monitor\" and "
                                              "point your tools at their files instead")));
}

std::optional<OffloadDevice> parseOffloadSection(const nlohmann::json& zero, const char* key,
                                                 Diagnostics& diags, std::string& nvme_path) {
    auto it = zero.find(key);
    if (it == zero.end() || it->is_null())
        return std::nullopt;
    const std::string path = joinPath("zero_optimization", key);
    if (!it->is_object()) {
        diags.error(path, expectedGot(Message(ZEROLAB_TR("ConfigCheck", "an object")), *it));
        return std::nullopt;
    }
    checkKeys(*it, path, kOffloadSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(&*it, path, diags);
    OffloadDevice device = OffloadDevice::None;
    if (auto v = r.getNamed("device", kOffloadDeviceNames))
        device = *v;
    if (auto v = r.getString("nvme_path"))
        nvme_path = *v;
    if (device == OffloadDevice::Nvme && nvme_path.empty())
        diags.error(r.pathOf("nvme_path"),
                    Message(ZEROLAB_TR("ConfigCheck", "required when device is \"nvme\" (as in "
                                                      "DeepSpeed)")));
    return device;
}

} // namespace

std::string_view toString(OffloadDevice d) {
    return nameOf(kOffloadDeviceNames, d).value_or("none");
}

void parseMonitors(const nlohmann::json& doc, Diagnostics& diags, MonitorsConfig& out) {
    parseMonitorOutput(sectionOf(doc, "tensorboard", diags), "tensorboard", diags, out.tensorboard);
    parseMonitorOutput(sectionOf(doc, "csv_monitor", diags), "csv_monitor", diags, out.csv_monitor);
    parseCommsLogger(sectionOf(doc, "comms_logger", diags), diags, out.comms_logger);
    parseFlopsProfiler(sectionOf(doc, "flops_profiler", diags), diags, out.flops_profiler);
    warnRemoteMonitor(doc, "wandb", diags);
    warnRemoteMonitor(doc, "comet", diags);
}

void parseOffload(const nlohmann::json* zero, int stage, Diagnostics& diags, OffloadConfig& out) {
    if (zero == nullptr)
        return;
    if (auto d = parseOffloadSection(*zero, "offload_optimizer", diags, out.optimizer_nvme_path)) {
        if (*d != OffloadDevice::None && stage == 0)
            diags.warning("zero_optimization.offload_optimizer",
                          Message(ZEROLAB_TR("ConfigCheck", "ignored: ZeRO-Offload needs stage 1, "
                                                            "2 or 3 (as in DeepSpeed)")));
        else
            out.optimizer = *d;
    }
    if (auto d = parseOffloadSection(*zero, "offload_param", diags, out.param_nvme_path)) {
        if (*d != OffloadDevice::None && stage != 3)
            diags.warning("zero_optimization.offload_param",
                          Message(ZEROLAB_TR("ConfigCheck", "ignored: only stage 3 offloads the "
                                                            "parameters (as in DeepSpeed)")));
        else
            out.param = *d;
    }
    if (out.optimizer == OffloadDevice::None)
        out.optimizer_nvme_path.clear();
    if (out.param == OffloadDevice::None)
        out.param_nvme_path.clear();
}

nlohmann::json monitorsJson(const MonitorsConfig& m) {
    auto output = [](const MonitorOutput& o) {
        return nlohmann::json{
            {"enabled", o.enabled}, {"output_path", o.output_path}, {"job_name", o.job_name}};
    };
    const CommsLoggerConfig& c = m.comms_logger;
    const FlopsProfilerConfig& f = m.flops_profiler;
    nlohmann::json j;
    j["tensorboard"] = output(m.tensorboard);
    j["csv_monitor"] = output(m.csv_monitor);
    j["comms_logger"] = {{"enabled", c.enabled},
                         {"verbose", c.verbose},
                         {"prof_all", c.prof_all},
                         {"prof_ops", c.prof_ops},
                         {"debug", c.debug}};
    j["flops_profiler"] = {{"enabled", f.enabled},           {"profile_step", f.profile_step},
                           {"module_depth", f.module_depth}, {"top_modules", f.top_modules},
                           {"detailed", f.detailed},         {"output_file", f.output_file}};
    return j;
}

void addOffloadJson(const OffloadConfig& o, nlohmann::json& zero) {
    auto section = [](OffloadDevice d, const std::string& nvme) {
        nlohmann::json j = {{"device", toString(d)}};
        if (!nvme.empty())
            j["nvme_path"] = nvme;
        return j;
    };
    zero["offload_optimizer"] = section(o.optimizer, o.optimizer_nvme_path);
    zero["offload_param"] = section(o.param, o.param_nvme_path);
}

} // namespace zerolab
