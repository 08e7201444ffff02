// The config keys that name a file or a folder: where a run writes (checkpoints, the
// DeepSpeed monitors) or what it reads (data, a model file). A lesson's and a sweep's runs
// may not choose these (docs/lab.md, docs/tune.md): the Lab runs as root for emulated hosts,
// and a lesson is a stranger's file.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

struct ConfigPathKey {
    std::array<std::string_view, 3> keys; // the JSON path, "" after its last key
    bool read = false;                    // read (data, a model file), else written
};

// Every key of the config schema that holds a path (config.h, config_monitors.h).
inline constexpr std::array<ConfigPathKey, 9> kConfigPathKeys = {{
    {{"run", "checkpoint_dir", ""}, false},
    {{"tensorboard", "output_path", ""}, false},
    {{"csv_monitor", "output_path", ""}, false},
    {{"flops_profiler", "output_file", ""}, false},
    {{"zero_optimization", "offload_optimizer", "nvme_path"}, false},
    {{"zero_optimization", "offload_param", "nvme_path"}, false},
    {{"data", "path", ""}, true},
    {{"model", "init_from", ""}, true},
    {{"model", "hf_config", ""}, true},
}};

// The dotted JSON paths ("csv_monitor.output_path") of the path keys present in `config`
// (a config document, or a merge patch onto one), whatever their values; written ones
// always, read ones when with_read.
inline std::vector<std::string> configPathsIn(const nlohmann::json& config, bool with_read) {
    std::vector<std::string> found;
    for (const ConfigPathKey& k : kConfigPathKeys) {
        if (k.read && !with_read)
            continue;
        const nlohmann::json* at = &config;
        std::string path;
        for (std::string_view key : k.keys) {
            if (key.empty())
                break;
            if (!at->is_object() || !at->contains(std::string(key))) {
                at = nullptr;
                break;
            }
            at = &(*at)[std::string(key)];
            path += (path.empty() ? "" : ".") + std::string(key);
        }
        if (at != nullptr)
            found.push_back(path);
    }
    return found;
}

} // namespace zerolab
