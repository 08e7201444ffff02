// The step-time model: a training config and a machine profile -> per rank, the time of
// forward, backward, recompute and the optimizer, each collective's time in flight and
// exposed, the step time, tokens/s, MFU, and a forecast timeline in the measured one's
// lanes (storage/timeline.h). It replays the engine's own schedule: the model's calls
// (model/unit_calls.h), the gradient buckets and gather slots of step_schedule.h, the
// engine's buffer plan (engine_buffers.h), so that a change to the schedule changes the
// forecast. Pure arithmetic beside predictRun: no MPI, no Qt. docs/planner.md, "Step time".
#pragma once

#include "runtime/config/config.h"
#include "runtime/model/unit_calls.h"
#include "runtime/planner/machine_profile.h"
#include "storage/timeline.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace zerolab {

// What the schedule costs, in seconds: the model's compute pieces (every block alike), the
// engine's own kernels by element count, and a collective by its whole buffer's bytes.
// stepCosts() makes them from a profile; the tests make them by hand.
struct StepCosts {
    std::array<double, 10> model{}; // indexed by ModelCompute
    std::function<double(OpKind, double elements)> engine_op;
    std::function<double(Collective, double bytes)> collective;
    // Where `model` came from: the profile's in-situ pieces at the config's B, T, or its
    // kernel rates summed over step_ops.h's kernels (said in the forecast's assumptions).
    bool model_in_situ = false;
    // The rate a collective progresses at while the compute thread computes, as a share of
    // its rate alone (1: compute takes nothing from it). Below 1 where the ranks' compute
    // and progress threads outnumber the cores: the progress thread then gets the core only
    // by turns (MachineProfile::comm_beside_compute). While the compute thread waits, a
    // collective runs at its full rate.
    double comm_rate_beside_compute = 1;
    // Compute slowed while a collective is in flight: each piece's seconds were the whole
    // piece to run beside one (0: as `model`, no slowdown), and the engine's kernels' (empty:
    // as engine_op). The replay runs the part of a piece that overlaps a collective at
    // model / model_beside_comm of its rate and the rest at its full rate. A GPU preset's
    // are its kernels on the SMs and HBM NCCL leaves (gpu_physics.h, besideCollective); a
    // calibrated profile's its measured compute_beside_comm.
    std::array<double, 10> model_beside_comm{};
    std::function<double(OpKind, double elements)> engine_op_beside_comm;
    // Said in the forecast's assumptions: where the slowdown came from ("gpu", "measured",
    // "none": a calibrated profile without it; "": one rank), and the measured share.
    std::string beside_comm_source;
    double model_beside_comm_rate = 1;
};

struct CollectiveForecast {
    Collective collective = Collective::AllReduce;
    int unit = -1;  // the gather unit it moves (-1: none)
    int micro = -1; // -1: outside the micro-steps
    double bytes = 0;
    double issue_s = 0, start_s = 0, end_s = 0; // since the step's start
    double exposed_s = 0;                       // the compute thread's wait on it
};

struct StepTimeForecast {
    // Compute per rank per optimizer step, in seconds.
    double forward_s = 0, backward_s = 0, recompute_s = 0, optimizer_s = 0;
    double engine_s = 0; // the engine's casts, zeroing, accumulation outside the above
    double compute_s = 0;
    // Of the compute above, the seconds added by running beside a collective in flight
    // (StepCosts::model_beside_comm): the overlapped parts' slowed time less their time alone.
    double compute_beside_comm_s = 0;
    // Per collective kind: time in flight and the part the compute thread waited for.
    std::array<double, kCollectiveCount> in_flight_s{}, exposed_s{};
    double comm_in_flight_s = 0, comm_exposed_s = 0;
    double step_s = 0;
    double tokens_per_s = 0;                     // all ranks
    double mfu = 0;                              // model FLOPs / (step * world * peak)
    double compute_scale = 1;                    // compute slowed by ranks sharing cores
    std::vector<CollectiveForecast> collectives; // issue order
    StepTimeline timeline;                       // rank 0's lanes, microseconds
    // Micro-steps counted in every sum above but absent from `collectives` and `timeline`:
    // repeats of the steady micro-step beyond kDrawnMicroSteps (simulateStep).
    int undrawn_micro_steps = 0;
    // Micro-steps the replay ran through the schedule; the others repeat one of them.
    int replayed_micro_steps = 0;
    std::vector<std::string> assumptions;
};

// The most micro-steps a forecast's collectives and timeline hold: the first ones, the
// repeats of the steady one up to this count, and the last.
inline constexpr int kDrawnMicroSteps = 64;

// Ranks over hosts: world / hosts ranks on each (hosts must divide the world).
// Collectives cross hosts when hosts > 1 (the inter-host link class), else stay within.
struct ClusterShape {
    int hosts = 1;
};

// The costs of `config` at its world on `profile` and `cluster`: the model's pieces as the
// profile timed them in situ at the config's B, T where it has them (ModelPieceTimes; a
// selective recompute scaled from the kernels by the block forward's in-situ/kernel
// ratio), else its kernels at B, T (step_ops.h); slowed by compute_scale where the ranks
// of a host need more threads than it has cores. Throws PlanError where the profile lacks a rate or
// fit.
StepCosts stepCosts(const TrainConfig& config, const MachineProfile& profile,
                    const ClusterShape& cluster, double* compute_scale = nullptr);

// The engine's step replayed over `costs`: per micro-step the model's calls with the
// engine's answers to them (stage-3 gathers and prefetch through GatherSlots, gradient
// slots and reduce-scatters, stage 0-1 buckets through reduceBuckets, with overlap_comm
// or after backward), then the optimizer step and the parameter sync; collectives run
// one at a time in issue order. Fills everything but tokens/s, MFU and assumptions.
// Its cost does not grow with the accumulation count: once a micro-step starts from the
// state the one before it started from (no collective in flight, no reduce pending, the
// same gather slots and parameter slots), every micro-step up to the last is that one
// again, shifted in time; it is replayed once and its times multiplied (equal to
// replaying each, to rounding). replay_each replays every micro-step instead: the
// reference the tests hold the repeat to.
StepTimeForecast simulateStep(const TrainConfig& config, const StepCosts& costs,
                              bool replay_each = false);

// The one forecast of a run's step time: simulateStep(stepCosts(...)), with tokens/s, MFU
// and the assumptions. Throws PlanError.
StepTimeForecast predictStepTime(const TrainConfig& config, const MachineProfile& profile,
                                 const ClusterShape& cluster = {});

} // namespace zerolab
