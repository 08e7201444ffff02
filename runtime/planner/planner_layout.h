// Which bytes per parameter each model state takes, and which states a ZeRO stage
// shards, under each convention. Internal to the planner (planner.cpp, the
// explain text and the errata share it so that every formula has one source).
#pragma once

#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/planner.h"

namespace zerolab {

// Bytes per parameter of each model state; 0 where the state does not exist.
struct StateBytes {
    int param = 0;  // the working copy forward/backward read (bf16 or fp32)
    int grad = 0;   // the gradient buffer the collectives move
    int master = 0; // fp32 master copy (mixed precision with master weights only)
    int moment = 0; // each of Adam's m and v, always fp32
};

struct ShardedBy {
    bool params = false;
    bool grads = false;
    bool master = false;
    bool optim = false; // m and v
};

// The convention a stage is planned in. The chapter defines stages 0 and 1 only (fp32
// grads, the fp32 master replicated); stages 2 and 3 are planned as ZeRO shards them
// (Convention::ZeroPaper), never with a replicated master no system would hold.
Convention conventionAt(Convention c, int stage);
// True where the chapter's convention was asked for but the stage is ZeRO's.
bool chapterUndefined(const PlanInput& in, int stage);

StateBytes stateBytes(const PlanInput& in, int stage);

// ZeroPaper: stage >= 1 shards m, v and the master; >= 2 grads; 3 params.
// Chapter (stages 0 and 1): the master is never sharded; otherwise the same.
ShardedBy shardedBy(Convention c, int stage);

// Model-state bytes per rank as R psi + S psi / N: R sums the replicated states,
// S the sharded ones (bytes per parameter).
struct StateCoefficients {
    int replicated = 0;
    int sharded = 0;
};
StateCoefficients stateCoefficients(const PlanInput& in, int stage);

std::string_view dtypeName(int bytes_per_elem); // 2: "bf16", 4: "fp32"

// True for zerolab's own GPT-2 (a shape whose paramCount is psi) in the ZeroPaper
// layout the engine implements: comm buffers and workspace are then the engine's
// exact ones (engine_buffers.h). The chapter's layout is not one the engine runs.
bool isEngineModel(const PlanInput& in, std::int64_t psi);
// The engine's buffer plan for zerolab's own GPT-2 (in.shape set), ZeRO++'s included.
EngineBufferPlan engineBufferPlan(const PlanInput& in, int stage);

} // namespace zerolab
