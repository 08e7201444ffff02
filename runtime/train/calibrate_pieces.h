// zerolab-calibrate's in-situ timing of the model (machine_profile.h, ModelPieceTimes): a
// real network's forward and backward on this machine's kernels, clocked between the model's
// calls to its UnitAccess, each interval charged to the piece of compute unit_calls.h says
// follows that call. What summing kernel rates misses (the model's own zeroing and
// copies, caches as a step leaves them, a sustained rather than a burst clock) is in it.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"
#include "runtime/model/model_shape.h"
#include "runtime/planner/machine_profile.h"

#include <functional>
#include <memory>
#include <vector>

namespace zerolab {

// A shape and micro-batch whose pieces are timed, at T = shape.seq_len.
struct PieceSet {
    ModelShape shape;
    int micro_batch = 1;
};

// The pieces of each set: round after round, every set's forward and backward once (full
// recompute, so that every piece runs), after a warm-up round; per piece the median over
// the rounds of its seconds per call. Interleaving the sets spreads a machine's drift (a
// shared VM's neighbours come and go in seconds) over all of them alike, where timing one
// set after another would give each the speed of its own few seconds. `roundDone(r)` after
// each round, 0 the warm-up. Throws KernelError from the kernels, and std::logic_error if
// the model's calls are not those of modelUnitCalls.
std::vector<ModelPieceTimes> measureModelPieces(Kernels& k, const std::vector<PieceSet>& sets,
                                                int rounds,
                                                const std::function<void(int)>& roundDone = {});

// The profile's reference pass (machine_profile.h, ReferencePass): one forward and
// backward of `shape` at B, no recompute, on this process; time() runs and clocks one,
// best(n) the fastest of n back to back (what a round of the load check reads: a burst of
// a few milliseconds slows one call, a load that lasts slows them all).
class ReferencePassTimer {
public:
    ReferencePassTimer(Kernels& k, const ModelShape& shape, int B);
    ~ReferencePassTimer();
    ReferencePassTimer(const ReferencePassTimer&) = delete;
    ReferencePassTimer& operator=(const ReferencePassTimer&) = delete;
    double time();
    double best(int calls);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

// One forward and backward of `shape` at B alone and with every rank of `comm` at once.
struct SharingTimes {
    double alone_s = 0;   // rank 0 by itself, the other ranks asleep: the median
    double slowest_s = 0; // all ranks at once, the slowest rank's pass: the median
    double mean_s = 0;    // all ranks at once, the ranks' mean pass: the median
};

// Collective. Round after round (after a warm-up), all ranks' pass at once, then rank 0's
// pass alone, so that both see the machine of the same seconds. zerolab-calibrate keeps
// slowest / alone while the ranks are no more than the cores (a step waits for its slowest
// rank, and a VM's cores that neighbours slow by turns finish the same work at different
// times), and mean / alone past them (a waiting rank then yields its core to one that
// computes).
SharingTimes sharingSeconds(Kernels& k, const ModelShape& shape, int B, int rounds,
                            Communicator& comm);

// Collective. The rate an all-reduce of `bytes` progresses at while every rank computes, as
// a share of its rate alone (`alone_s`: its time alone): round after round (after a
// warm-up) every rank starts the all-reduce, runs one pass of `shape` at B and waits; the
// all-reduce's time in flight E (its progress thread's clock) against the pass's D gives
// alone_s / E where it ended within the pass, else (alone_s - (E - D)) / D, the rest having
// run at the full rate once compute waited. The median of the rounds, kept in [0.001, 1].
//
// With compute_rate, the other way round, in the same rounds: the rate compute progresses
// at while a collective is in flight, as a share of its rate with every rank computing and
// none communicating. Each round also times the pass alone (D0, every rank at once) and
// once more beside all-reduces of `bytes` queued to outlast it (their time alone summed at
// least 1.5 D0, at most 256 of them and 256 MiB): over the in-flight part min(E', D1) of
// that pass D1, compute did D0 - (D1 - min(E', D1)) of work, a rate 1 - (D1 - D0) / min(E',
// D1). The ranks' mean of their medians, kept in [0.001, 1].
double commRateBesideCompute(Kernels& k, const ModelShape& shape, int B, double bytes,
                             double alone_s, int rounds, Communicator& comm,
                             double* compute_rate = nullptr);

} // namespace zerolab
