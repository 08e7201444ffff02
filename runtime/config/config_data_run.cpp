// The config's "data" and "run" sections: where tokens come from, and how long,
// how reproducibly and on what device the run goes.
#include "runtime/config/config_schema.h"
#include "runtime/config/config_sections.h"
#include "runtime/config/cpu_threads.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <thread>

namespace zerolab {

namespace {
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr double kMinCollectiveTimeoutS = 1.0;
constexpr double kMaxCollectiveTimeoutS = 7 * 24 * 3600.0;
} // namespace

int autoThreadsPerRank(int ranks_on_host) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, cores / std::max(1, ranks_on_host));
}

void parseData(const nlohmann::json* section, Diagnostics& diags, DataConfig& out) {
    const std::string path = "data";
    if (section != nullptr)
        checkKeys(*section, path, kDataSchema, UnknownKeyPolicy::Error, diags);
    SectionReader r(section, path, diags);
    if (auto t = r.getChoice("type", {"synthetic", "text", "llmc"}))
        out.type = static_cast<DataType>(*t);
    std::optional<std::string> file = r.getString("path");
    if (file && file->empty())
        file.reset();
    if (out.type == DataType::Synthetic) {
        if (file)
            diags.warning(r.pathOf("path"),
                          Message(ZEROLAB_TR("ConfigCheck", "ignored: data.type \"synthetic\" "
                                                            "reads no file")));
        return;
    }
    const std::string type_name(toString(out.type));
    if (!file) {
        if (!r.has("path") || r.raw("path")->is_string())
            diags.error(
                r.pathOf("path"),
                Message(ZEROLAB_TR("ConfigCheck", "required for data.type \"%1\""), {type_name}));
        return;
    }
    std::error_code ec;
    if (!std::filesystem::exists(*file, ec))
        diags.error(r.pathOf("path"),
                    Message(ZEROLAB_TR("ConfigCheck", "\"%1\" does not exist"), {*file}));
    else
        out.path = *file;
}

void parseRun(const nlohmann::json* section, Diagnostics& diags, RunConfig& out) {
    const std::string path = "run";
    if (section != nullptr)
        checkKeys(*section, path, kRunSchema, UnknownKeyPolicy::Error, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getInt("steps", 1, kIntMax))
        out.steps = static_cast<int>(*v);
    if (auto v = r.getInt("seed", 0, std::numeric_limits<std::int64_t>::max()))
        out.seed = static_cast<std::uint64_t>(*v);
    if (auto d = r.getChoice("device", {"cpu", "cuda"}))
        out.device = static_cast<Device>(*d);
    if (auto v = r.getInt("log_every", 1, kIntMax))
        out.log_every = static_cast<int>(*v);
    if (auto v = r.getInt("checkpoint_every", 0, kIntMax))
        out.checkpoint_every = static_cast<int>(*v);
    if (auto v = r.getString("checkpoint_dir"))
        out.checkpoint_dir = *v;
    if (out.checkpoint_every > 0 && out.checkpoint_dir.empty())
        diags.error(r.pathOf("checkpoint_dir"),
                    Message(ZEROLAB_TR("ConfigCheck",
                                       "must not be empty when run.checkpoint_every is > 0")));
    if (auto p = r.getChoice("on_checkpoint_error", {"continue", "stop"}))
        out.on_checkpoint_error = static_cast<CheckpointErrorPolicy>(*p);
    if (auto v = r.getInt("threads", 0, 1024))
        out.threads = static_cast<int>(*v);
    if (auto v = r.getInt("timeline_every", 0, kIntMax))
        out.timeline_every = static_cast<int>(*v);
    // A week bounds it: beyond that a stall is never reported, which 0 does not mean. A
    // second is the floor: below it a healthy rank's ordinary scheduling pause is a stall.
    if (auto v = r.getNumber(
            "collective_timeout_s",
            [](double x) {
                return x == 0 || (x >= kMinCollectiveTimeoutS && x <= kMaxCollectiveTimeoutS);
            },
            Message(ZEROLAB_TR("ConfigCheck",
                               "0 or a number of seconds in [1, 604800]; below 1 s an ordinary "
                               "scheduling pause of a healthy rank would count as a stall (0: "
                               "max(10 x the median step time, 120 s))"))))
        out.collective_timeout_s = *v;
    if (auto v = r.getChoice("on_stall", {"kill", "flag"}))
        out.on_stall = static_cast<OnStall>(*v);
    if (auto v = r.getInt("ranks_per_host", 0, kIntMax))
        out.ranks_per_host = static_cast<int>(*v);
}

} // namespace zerolab
