// A sweep's candidates: the grid points of its axes, each turned into a config document
// (base + axis values + the batch rule) and planned with the planner's one prediction
// (predictRun) against the capacity. A candidate that does not fit is pruned with the
// planner's numbers and never launched.
#pragma once

#include "runtime/config/config.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

// Every combination of the axes' values as {"axis": value}, the last axis varying fastest.
std::vector<nlohmann::json> gridPoints(const std::vector<SweepAxis>& axes);

// The config document of one point: the base with each axis value set at its JSON path,
// and the batch rule (hold_global_batch) applied. *world receives N (the world axis, else
// the base's own). Throws SweepError when an axis path runs through a non-object.
nlohmann::json candidateConfig(const SweepSpec& spec, const nlohmann::json& point, int* world);

// Bytes a rank may fill at this N: host RAM / N, a device less its reserve, or the number.
std::int64_t capacityBytes(const SweepCapacity& capacity, int world);

// The document a trial of `doc` (a candidate's config at N = world) runs: run.steps =
// warmup + measured steps, a metric line every step, no checkpoints, no step timeline, and a
// scheduler's total_num_steps "auto" pinned to the candidate's own run.steps, so that a
// trial runs the first steps of the base's learning-rate schedule (docs/tune.md).
nlohmann::json trialRunConfig(const SweepSpec& spec, const nlohmann::json& doc, int world);
// The config errors of trialRunConfig(doc) at N = world, each named with label; "" when none.
std::string trialRunErrors(const SweepSpec& spec, const nlohmann::json& doc, int world,
                           const std::string& label);

// The threads per rank every candidate of the sweep runs with (docs/tune.md): the base's
// run.threads, else what the runtime's own rule gives at the sweep's largest N (the host's
// cores / N), so that N does not change the threads; 0 when an axis sets run.threads.
int sweepThreads(const SweepSpec& spec);

// A trial record for the point, planned: Pending when it fits, Pruned (reason: the
// planner's total and categories against the capacity), or Invalid (the errors of the
// config as its trial runs it: trialRunConfig, steps and warm-up included).
TrialRecord planTrial(const SweepSpec& spec, const nlohmann::json& point, const std::string& phase);

// The resolved config of a stored trial (its config_json at its world). Throws SweepError.
TrainConfig trialConfig(const TrialRecord& trial, const std::string& source);

// "stage=1 world=2 train_micro_batch_size_per_gpu=4": the point in a line, short names.
std::string describePoint(const nlohmann::json& axes);
// The short column name of an axis: its last path component ("stage", "world").
std::string axisLabel(const std::string& axis);

} // namespace zerolab
