// The step-time forecast as the views show it: where its machine profile comes from (this
// machine's newest calibration in the store, or a cluster preset of cluster_presets.h) and
// predictStepTime of a config on it. Nothing here computes a time: every number is the
// planner's step-time model (runtime/planner/step_time.h).
#pragma once

#include "runtime/config/config.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/step_time.h"

#include <QMetaType>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

// A profile to forecast with: this machine's calibrated one, or a preset cluster of GPUs
// (ranks_per_host on each host, NVLink inside, `inter` between hosts).
struct TimeSource {
    std::optional<MachineProfile> machine; // set: this machine (gpu empty)
    std::string gpu;                       // a GPU preset key, "a100-80"
    std::string inter;                     // the link between hosts, "ib-hdr"
    int ranks_per_host = 8;
    bool isMachine() const { return machine.has_value(); }
};

// The cluster presets the views offer: each GPU preset, eight to a host (a DGX/HGX box),
// joined by the InfiniBand of its generation.
std::vector<TimeSource> clusterPresets();

// Hosts the config's world is spread over: on this machine, the config's own
// run.ranks_per_host (one host when it has none); on a preset, the fewest hosts of at most
// ranks_per_host ranks each that divide the world.
ClusterShape clusterFor(const TimeSource& source, const TrainConfig& config);

// The profile of `source` for a run at `precision`. Throws PlanError.
MachineProfile profileFor(const TimeSource& source, Precision precision);

// predictStepTime(config, profileFor(source), clusterFor(source)). Throws PlanError.
StepTimeForecast forecastStep(const TrainConfig& config, const TimeSource& source);

// "this machine, calibrated on 2026-12-01" or "cluster preset: 8 hosts × 8 A100 80 GB,
// InfiniBand HDR (200 Gb/s) between them" (translated; world decides the hosts).
QString sourceLabel(const TimeSource& source, const TrainConfig& config);
// The combo's short name: "this machine (calibrated 2026-12-01)"; a preset for a world of
// `world` ranks as sourceLabel shapes it, "2 × A100 80 GB (one host)" or "2 hosts × 8
// A100 80 GB · InfiniBand HDR (200 Gb/s)"; world 0 (none known): its hosts' size, "8 ×
// A100 80 GB · InfiniBand HDR (200 Gb/s)".
QString sourceName(const TimeSource& source, int world = 0);

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::MachineProfile)
