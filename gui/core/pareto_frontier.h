// The Pareto frontier of a sweep's trials: the points no other point beats on both
// axes at once (less or equal peak memory per rank and more or equal tokens/s, one of
// them strictly). The Tune view draws it; a tuner picks from it.
#pragma once

#include <vector>

namespace zerolab {

struct TradeoffPoint {
    double peak_bytes = 0;   // x: lower is better
    double tokens_per_s = 0; // y: higher is better
};

// Indices into `points` of the frontier, by ascending peak_bytes (so also ascending
// tokens/s). Points with a non-finite or negative coordinate are never on it; of
// equal points the first is.
std::vector<int> paretoFrontier(const std::vector<TradeoffPoint>& points);

} // namespace zerolab
