// Rank counts between the calibrated ones (rank_interpolation.h): the collectives' fits by
// the ring's steps and traffic, the slowdown tables as time factors linear in the ranks.
#include "runtime/planner/rank_interpolation.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace zerolab {

namespace {

std::string between(const RankNeighbours& n) {
    return "between the calibrated " + std::to_string(n.below) + " and " + std::to_string(n.above);
}

std::string fixed(double x, const char* format) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

} // namespace

int ringSteps(Collective c, int ranks) {
    return c == Collective::AllReduce ? 2 * (ranks - 1) : ranks - 1;
}

std::optional<RankNeighbours> rankNeighbours(const std::vector<int>& calibrated, int ranks) {
    std::optional<int> below, above;
    for (int n : calibrated) {
        if (n == ranks)
            return std::nullopt;
        if (n < ranks && (!below || n > *below))
            below = n;
        if (n > ranks && (!above || n < *above))
            above = n;
    }
    if (!below || !above)
        return std::nullopt;
    return RankNeighbours{*below, *above};
}

double interpolatedCollectiveSeconds(const CollectiveFit& below, const CollectiveFit& above,
                                     int ranks, double bytes) {
    const Collective c = below.collective;
    const double t_below = fitSeconds(below, bytes), t_above = fitSeconds(above, bytes);
    const double l_below = std::min(below.latency_s, t_below);
    const double l_above = std::min(above.latency_s, t_above);
    const double w_below = t_below - l_below, w_above = t_above - l_above;
    const double by_steps = static_cast<double>(ringSteps(c, ranks) - ringSteps(c, below.ranks)) /
                            (ringSteps(c, above.ranks) - ringSteps(c, below.ranks));
    const double by_traffic =
        (ringTrafficFactor(c, ranks) - ringTrafficFactor(c, below.ranks)) /
        (ringTrafficFactor(c, above.ranks) - ringTrafficFactor(c, below.ranks));
    const double t =
        l_below + by_steps * (l_above - l_below) + w_below + by_traffic * (w_above - w_below);
    return std::clamp(t, std::min(t_below, t_above), std::max(t_below, t_above));
}

std::optional<RankFactor> rankFactor(const std::vector<std::pair<int, double>>& table, int ranks) {
    std::vector<int> calibrated;
    for (const auto& [n, value] : table) {
        if (n == ranks)
            return RankFactor{value, std::nullopt};
        calibrated.push_back(n);
    }
    const std::optional<RankNeighbours> near = rankNeighbours(calibrated, ranks);
    if (!near)
        return std::nullopt;
    double lo = 0, hi = 0;
    for (const auto& [n, value] : table) {
        if (n == near->below)
            lo = value;
        if (n == near->above)
            hi = value;
    }
    const double share = static_cast<double>(ranks - near->below) / (near->above - near->below);
    return RankFactor{lo + share * (hi - lo), near};
}

std::vector<std::string> rankInterpolationAssumptions(const MachineProfile& p, LinkClass link,
                                                      int world, int sharing, bool broadcast) {
    std::vector<std::string> out;
    const std::string on = " on " + std::string(kLinkClassNames[static_cast<std::size_t>(link)]);
    if (world < 2 || p.gpu || (link == LinkClass::IntraHost ? p.intra_link : p.inter_link))
        return out;
    // The collectives whose fits were read between the same two rank counts, in one line.
    std::map<std::pair<int, int>, std::vector<std::string>> by_neighbours;
    for (std::size_t k = 0; k < kCollectiveCount; ++k) {
        const auto c = static_cast<Collective>(k);
        if (c == Collective::Broadcast && !broadcast)
            continue;
        std::vector<int> calibrated;
        for (const CollectiveFit& f : p.fits)
            if (f.collective == c && f.link == link)
                calibrated.push_back(f.ranks);
        if (const auto near = rankNeighbours(calibrated, world))
            by_neighbours[{near->below, near->above}].push_back(std::string(collectiveName(c)));
    }
    for (const auto& [near, names] : by_neighbours) {
        std::string list;
        for (std::size_t i = 0; i < names.size(); ++i)
            list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        out.push_back("collective fits over " + std::to_string(world) + " ranks" + on + " (" +
                      list + ") interpolated " + between({near.first, near.second}) +
                      ": latency linear in the ring's steps, per-byte time linear in its "
                      "traffic factor (calibrate at " +
                      std::to_string(world) + " ranks to measure them)");
    }
    if (const auto f = rankFactor(p.compute_slowdown, sharing); f && f->interpolated)
        out.push_back("compute slowdown of " + std::to_string(sharing) +
                      " ranks computing at once interpolated " + between(*f->interpolated) + ": " +
                      fixed(f->value, "%.2fx"));
    if (const auto f = besideRate(p.comm_beside_compute, link, world); f && f->interpolated)
        out.push_back("comm_beside_compute over " + std::to_string(world) + " ranks" + on +
                      " interpolated " + between(*f->interpolated) + " as a time factor: " +
                      fixed(f->value * 100, "%.0f%%") + " of the rate alone");
    if (const auto f = besideRate(p.compute_beside_comm, link, world); f && f->interpolated)
        out.push_back("compute_beside_comm over " + std::to_string(world) + " ranks" + on +
                      " interpolated " + between(*f->interpolated) + " as a time factor: " +
                      fixed(f->value * 100, "%.0f%%") + " of the rate alone");
    return out;
}

} // namespace zerolab
