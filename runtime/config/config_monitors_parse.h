// Parsers of the monitoring sections and of ZeRO-Offload's keys (config_monitors.cpp),
// and their JSON for toJson. Internal to the config library.
#pragma once

#include "runtime/config/config.h"
#include "runtime/config/config_reader.h"
#include "runtime/config/config_sections.h"

#include <nlohmann/json.hpp>

namespace zerolab {

// tensorboard, csv_monitor, comms_logger, flops_profiler from the top-level document;
// wandb and comet become warnings that say to use the files instead.
void parseMonitors(const nlohmann::json& doc, Diagnostics& diags, MonitorsConfig& out);
// zero_optimization.offload_optimizer / offload_param (zero may be null). An offload the
// stage cannot do (optimizer at stage 0, param below stage 3) is a warning, not applied.
void parseOffload(const nlohmann::json* zero, int stage, Diagnostics& diags, OffloadConfig& out);

// {"tensorboard": {...}, "csv_monitor": {...}, "comms_logger": {...}, "flops_profiler": {...}}
nlohmann::json monitorsJson(const MonitorsConfig& m);
// Adds offload_optimizer and offload_param to a zero_optimization object.
void addOffloadJson(const OffloadConfig& o, nlohmann::json& zero);

} // namespace zerolab
