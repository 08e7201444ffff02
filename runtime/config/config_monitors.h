// DeepSpeed's monitoring sections (tensorboard, csv_monitor, comms_logger,
// flops_profiler) and ZeRO-Offload's offload_optimizer / offload_param, resolved with
// DeepSpeed's defaults. Part of TrainConfig (config.h); parsed in config_monitors.cpp.
#pragma once

#include <string>
#include <vector>

namespace zerolab {

// "tensorboard" and "csv_monitor": rank 0 writes under output_path/job_name (as
// DeepSpeed: os.path.join(output_path, job_name), so "" means ./job_name).
struct MonitorOutput {
    bool enabled = false;
    std::string output_path;
    std::string job_name = "DeepSpeedJobName";

    bool operator==(const MonitorOutput&) const = default;
};

// "comms_logger": verbose prints one line per collective; the summary table is printed
// at the end of the run. prof_all profiles every collective, else only those named in
// prof_ops (DeepSpeed's op names: all_reduce, reduce_scatter_tensor,
// all_gather_into_tensor, broadcast). debug appends the caller (ours: the ZeRO engine).
struct CommsLoggerConfig {
    bool enabled = false;
    bool verbose = false;
    bool prof_all = true;
    std::vector<std::string> prof_ops;
    bool debug = false;

    bool operator==(const CommsLoggerConfig&) const = default;
};

// "flops_profiler": at optimizer step profile_step rank 0 prints DeepSpeed's profile,
// to output_file when given, else to stdout's neighbour stderr (stdout carries metric
// lines). module_depth -1: every depth.
struct FlopsProfilerConfig {
    bool enabled = false;
    int profile_step = 1;
    int module_depth = -1;
    int top_modules = 1;
    bool detailed = true;
    std::string output_file;

    bool operator==(const FlopsProfilerConfig&) const = default;
};

struct MonitorsConfig {
    MonitorOutput tensorboard;
    MonitorOutput csv_monitor;
    CommsLoggerConfig comms_logger;
    FlopsProfilerConfig flops_profiler;

    bool operator==(const MonitorsConfig&) const = default;
};

// Where offload_optimizer / offload_param put their tensors ("device").
enum class OffloadDevice { None, Cpu, Nvme };

// zero_optimization.offload_optimizer (stages 1-3: fp32 master, m, v and the optimizer
// step on the host) and offload_param (stage 3: the parameters too). Forecast by the
// planner; not run (docs/gpu.md).
struct OffloadConfig {
    OffloadDevice optimizer = OffloadDevice::None;
    OffloadDevice param = OffloadDevice::None;
    std::string optimizer_nvme_path;
    std::string param_nvme_path;

    bool any() const { return optimizer != OffloadDevice::None || param != OffloadDevice::None; }
    bool operator==(const OffloadConfig&) const = default;
};

std::string_view toString(OffloadDevice d);

} // namespace zerolab
