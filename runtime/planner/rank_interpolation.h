// A calibrated profile's tables keyed by rank count (the collectives' fits, compute_slowdown,
// comm_beside_compute, compute_beside_comm) read at a rank count between two calibrated
// ones: interpolated from its two neighbours, never extrapolated beyond the calibrated
// range. docs/planner.md, "Rank counts between the calibrated ones". Pure: no MPI.
#pragma once

#include "runtime/planner/machine_profile.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// Ring steps a collective's latency is paid for: 2(N-1) for an all-reduce, N-1 otherwise.
int ringSteps(Collective c, int ranks);

// The calibrated rank counts nearest below and above a rank count that is not calibrated
// itself but lies strictly between two that are.
struct RankNeighbours {
    int below = 0;
    int above = 0;
};
// The neighbours of `ranks` among `calibrated` (any order, repeats allowed); nullopt where
// `ranks` is calibrated itself or lies outside the calibrated range.
std::optional<RankNeighbours> rankNeighbours(const std::vector<int>& calibrated, int ranks);

// Seconds of `bytes` (whole buffer) over `ranks` ranks, strictly between below.ranks and
// above.ranks, from the two fits of the same collective and link. Each neighbour's time
// t_x = fitSeconds(f_x, bytes) splits into its latency part L_x = min(latency_s, t_x) and
// its per-byte part W_x = t_x - L_x; the latency part is taken linear in the ring's steps
// (ringSteps) through the two, the per-byte part linear in its traffic factor
// (ringTrafficFactor: 2(N-1)/N for an all-reduce, (N-1)/N otherwise) through the two; the
// sum is kept within the two neighbours' times.
double interpolatedCollectiveSeconds(const CollectiveFit& below, const CollectiveFit& above,
                                     int ranks, double bytes);

// A time factor keyed by rank count (a compute slowdown; the inverse of a beside-rate) at
// `ranks`: the entry's own where the table has it, else the line through its two
// neighbours (`interpolated` names them), else nullopt (outside the calibrated range).
struct RankFactor {
    double value = 1;
    std::optional<RankNeighbours> interpolated;
};
std::optional<RankFactor> rankFactor(const std::vector<std::pair<int, double>>& table, int ranks);

// A beside-rate table (comm_beside_compute or compute_beside_comm) at `link` and `ranks`:
// the rate where calibrated, else interpolated between its neighbours as a time factor
// (1 / rate linear in the rank count), else nullopt.
template <class Beside>
std::optional<RankFactor> besideRate(const std::vector<Beside>& table, LinkClass link, int ranks) {
    std::vector<std::pair<int, double>> factors;
    for (const Beside& b : table)
        if (b.link == link)
            factors.push_back({b.ranks, 1 / b.rate});
    std::optional<RankFactor> f = rankFactor(factors, ranks);
    if (f)
        f->value = 1 / f->value;
    return f;
}

// The forecast's assumption lines for every table a step over `world` ranks on `link`
// read between two calibrated rank counts (`sharing`: the ranks computing at once on one
// machine, compute_slowdown's key; `broadcast`: whether the broadcast's fit is read, as it
// is without allgather_partitions). Empty where every table was read at a calibrated rank
// count.
std::vector<std::string> rankInterpolationAssumptions(const MachineProfile& p, LinkClass link,
                                                      int world, int sharing, bool broadcast);

} // namespace zerolab
