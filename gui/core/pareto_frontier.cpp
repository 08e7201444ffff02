#include "gui/core/pareto_frontier.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace zerolab {

std::vector<int> paretoFrontier(const std::vector<TradeoffPoint>& points) {
    std::vector<int> order;
    for (int i = 0; i < int(points.size()); ++i) {
        const TradeoffPoint& p = points[std::size_t(i)];
        if (std::isfinite(p.peak_bytes) && std::isfinite(p.tokens_per_s) && p.peak_bytes >= 0 &&
            p.tokens_per_s >= 0)
            order.push_back(i);
    }
    // Ascending memory; at equal memory the fastest first, then the earliest.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const TradeoffPoint& pa = points[std::size_t(a)];
        const TradeoffPoint& pb = points[std::size_t(b)];
        if (pa.peak_bytes != pb.peak_bytes)
            return pa.peak_bytes < pb.peak_bytes;
        return pa.tokens_per_s > pb.tokens_per_s;
    });
    // Sweeping by memory, a point is on the frontier when it is faster than every point
    // that needs no more memory than it.
    std::vector<int> frontier;
    double best = -1;
    for (int i : order) {
        const double speed = points[std::size_t(i)].tokens_per_s;
        if (speed > best) {
            frontier.push_back(i);
            best = speed;
        }
    }
    return frontier;
}

} // namespace zerolab
