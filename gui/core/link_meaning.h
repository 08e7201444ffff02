// What a cluster preset's link between hosts means, in words next to the picker (Setup,
// Tune, Learn): its rate per GPU, the NICs a node has and the node's rate, the planner's
// own numbers (interHostLink, cluster_presets.h), as zerolab-plan says them back.
#pragma once

#include "gui/core/step_forecast.h"

#include <QString>

namespace zerolab {

// "InfiniBand NDR (400 Gb/s) between hosts: 400 Gb/s per GPU · 8 NICs per node = 3.2 Tb/s
// per node" for a preset of 8 GPUs a host (one NIC per GPU, as in a DGX); translated. Empty
// for this machine's profile (its links were measured) or a link the planner does not know.
QString linkMeaning(const TimeSource& source);

} // namespace zerolab
