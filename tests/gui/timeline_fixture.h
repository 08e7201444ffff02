// Realistic step timelines for the GUI's timeline chart, built in memory by a small
// simulation of what the ZeRO engine does in one optimizer step (engine/zero_engine.h,
// engine/param_gather.h): per-rank compute threads, one communication stream per rank,
// collectives that end when the last rank has joined. Used by the chart's tests, its
// screenshots and, later, the fixture store.
#pragma once

#include "storage/timeline.h"

namespace zerolab {

// GPT-2 small's shapes in bf16 with 6 blocks: gather units 0 (embedding), 1..6 (blocks),
// 7 (final layernorm; the tied head runs there). Times in microseconds. Collectives
// move 6 GB/s of bus bandwidth (a PCIe gen3 workstation), the slow-rank case 40 GB/s (NVLink)
// so that its waiting comes from the slow rank rather than from the links.

// ZeRO-3 with overlap_comm (two gather slots): each unit's all-gather for unit k+1 is
// issued as unit k is acquired, so it runs while k computes; backward starts with units
// 7 and 6 still gathered; every unit's reduce-scatter is issued after its backward and
// runs under the next unit's backward. The embedding gather at the start and its
// reduce-scatter at the end stay exposed (Wait spans). Memory: activations rise through
// forward and fall through backward; the gather slots and buckets are preallocated.
StepTimeline stage3OverlapTimeline(int world = 2, long long step = 200);

// ZeRO-2 without overlap_comm: each unit's reduce-scatter is blocking, so backward
// alternates with Wait spans; then the grad-norm all-reduce, the optimizer on the
// shard and the parameter all-gathers (waited for at the end). `recompute` adds a
// Recompute span before each block's backward (model.recompute).
StepTimeline stage2NoOverlapTimeline(int world = 2, int accumulation = 2, bool recompute = false,
                                     long long step = 200);

// ZeRO-1 with overlap_comm, all-reduce buckets under backward, and `slowRank` computing
// 1.4x slower: every other rank's all-reduces run long (they started and then waited
// for the slow rank inside the collective) and their compute waits at the end of
// backward and before the parameter all-gathers complete.
StepTimeline slowRankTimeline(int world = 4, int slowRank = 1, long long step = 200);

} // namespace zerolab
