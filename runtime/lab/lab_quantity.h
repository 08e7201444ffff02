// Named quantities a lesson checks and charts, read two ways: planned (the planner's one
// prediction, predictRun / plan, never a copy of its arithmetic) and measured (the store:
// the ledger per rank, traffic and timeline of a run's last logged step). Also the
// variables a formula sees for a run or a plan.
#pragma once

#include "runtime/config/config.h"
#include "runtime/lab/lab_expr.h"
#include "runtime/lab/lab_units.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"
#include "storage/records.h"
#include "storage/timeline.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

class RunReader;

struct LabQuantity {
    std::string_view name;
    LabDimension dimension;
    bool planned;  // the planner predicts it
    bool measured; // a stored run records it
    bool timing;   // a time: planned by the step-time model on the step's calibrated profile
    std::string_view description;
};

// Every quantity: the ledger categories (params, master_params, grads, optim_m, optim_v,
// activations, comm_buffers, workspace), optimizer_states (master + m + v),
// model_states, total, traffic_bytes, traffic_elements, <collective>_traffic_bytes,
// <collective>_count (collectives issued per step on the rank, from the timeline),
// loss (the last step's, measured only), step_ms, exposed_ms.
const std::vector<LabQuantity>& labQuantities();
const LabQuantity* findLabQuantity(std::string_view name);

// A finished lesson run read back from the store, with its planner prediction.
struct LabRunData {
    std::int64_t run_id = 0;
    std::string name;
    RunStatus status = RunStatus::Finished;
    TrainConfig config;                   // the stored resolved config
    Plan plan;                            // plan(planInputFromConfig(config))
    StagePlan predicted;                  // predictRun(config)
    StepRecord last_step;                 // the last logged step (ranks filled)
    std::vector<StepRecord> steps;        // every logged step (ranks empty), for charts
    std::optional<StepTimeline> timeline; // the last step's timeline, if recorded
};

// Throws LessonError naming the run when it is unknown, logged no step or has no
// config. The measured step is the last logged one.
LabRunData readLabRun(RunReader& reader, std::int64_t run_id);

// Every run of `ids` read from the store at db_path (read-only), by lesson run id: what a
// step's chart draws. Throws LessonError (a run unreadable) or StoreError (the store).
std::map<std::string, LabRunData> readStepRuns(const std::map<std::string, std::int64_t>& ids,
                                               const std::string& db_path);

// Base-unit values (bytes, elements, count, ms); nullopt when this source does not
// have it (a planner-only quantity measured, a timing planned, rank out of range). A time
// measured is the median over the run's logged steps after the first (its warm-up).
std::optional<double> measuredQuantity(const LabRunData& run, std::string_view name, int rank);
std::optional<double> plannedQuantity(const Plan& plan, int stage, std::string_view name);
// A time quantity (step_ms, exposed_ms) of the run forecast by the step-time model, the
// one function predictStepTime on `profile`, over the run's hosts (world /
// run.ranks_per_host). Throws LessonError naming the run where the profile lacks a rate
// or a fit the forecast needs.
std::optional<double> forecastTime(const LabRunData& run, const MachineProfile& profile,
                                   std::string_view name);

// Formula variables of a run: psi, psi_padded, N, stage, B (micro-batch), T, L, C, H,
// V (vocab), Vp (padded vocab), accumulation, K (12 mixed, 8 fp32), P (bytes per param
// element: 2 bf16, 4 fp32), G (bytes per grad element), steps. Of a plan: the same
// from its PlanInput (B, T, L, C, H, V, Vp only with a shape), plus GB = 1e9, GiB, MiB.
ExprVariables runVariables(const LabRunData& run);
ExprVariables planVariables(const Plan& plan, int stage);
// The names runVariables / planVariables may define (the parser checks formulas against it).
const std::vector<std::string>& labVariableNames();

} // namespace zerolab
