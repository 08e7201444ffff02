// ZeRO++ in the plan (docs/engine.md, ZeRO++): which of qwZ, hpZ and qgZ a stage-3 run
// uses, the hosts that split its traffic by link class, the buffers it adds to the
// engine's plan, and every collective of its step with the bytes each sends within a host
// and across hosts. The engine allocates and issues exactly this; the planner forecasts it.
#pragma once

#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "storage/block_format.h"
#include "storage/comm_traffic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zerolab {

struct PlanInput;

struct ZeroPPOptions {
    bool qwz = false; // int8 parameter all-gathers
    int hpz = 1;      // secondary shard over groups of hpz ranks (1: off)
    bool qgz = false; // int4 two-hop all-to-all gradient reduction
    // Hosts for the link classes and qgZ's groups: groups of this many consecutive ranks.
    int ranks_per_host = 1;
    int n_embd = 1; // qgZ's block (storage/block_format.h, qgzFormat)
    bool any() const { return qwz || hpz > 1 || qgz; }
};

// Ranks per host: run.ranks_per_host when above 0, else zero_hpz_partition_size when
// above 1 (DeepSpeed's hpZ groups are a host's ranks), else the whole world (one host).
int linkHostSize(int ranks_per_host, int hpz_partition_size, int world);
// The options of a plan input at its stage (ZeRO++ off below stage 3).
ZeroPPOptions zeroppOptions(const PlanInput& in, int stage);

// qgZ falls back to a reduce-scatter of a unit as DeepSpeed does for a tensor: a 1-D one
// (the final layernorm's unit) or one whose size is not a multiple of 2N. The reason in
// words, or nullopt where the unit goes through the all-to-all.
std::optional<std::string> qgzFallback(const ParamLayout& layout, int unit, int world);

// Sets the ZeRO++ fields of a stage-3 buffer plan (engine_buffers.h).
void addZeroPPBuffers(EngineBufferPlan& plan, const ParamLayout& layout, const ZeroPPOptions& o);

// The host of each member of a group of P consecutive ranks (within: rank's own group) or of
// ranks with rank's place in their group (across), at ranks_per_host ranks a host.
std::vector<int> withinGroupHosts(int rank, int P, int ranks_per_host);
std::vector<int> acrossGroupHosts(int rank, int P, int world, int ranks_per_host);
// What a ring collective of `traffic` bytes over a group sends by link class, and what an
// all-to-all of `block` bytes per peer does (from `rank`'s place `me` in the group).
LinkTraffic ringLinkTraffic(double traffic, const std::vector<int>& memberHosts);
// ringLinkTraffic over the whole world (ranks 0..world-1), without listing its hosts.
LinkTraffic worldRingLinkTraffic(double traffic, int world, int ranks_per_host);
LinkTraffic allToAllLinkTraffic(double block, const std::vector<int>& memberHosts, int me);

// Everything rank 0 of a stage-3 run sends in one optimizer step of `accumulation`
// micro-steps, per collective kind (the all-to-alls apart) and by link class; plain
// stage 3 when o.any() is false. esz: bytes of the param dtype (= the gradients').
CommTraffic stage3StepTraffic(const ParamLayout& layout, const EngineBufferPlan& plan,
                              const ZeroPPOptions& o, int accumulation);

} // namespace zerolab
