// checkRankRows: one pass over the rows sorted by rank; nothing sized by the world.
#include "gui/core/rank_rows.h"

#include "gui/core/config_validation.h"

#include <algorithm>

namespace zerolab {

CheckedRanks checkRankRows(std::vector<RankRecord> rows, std::int64_t world) {
    if (rows.empty())
        return {}; // nothing logged for the step: nothing disagrees
    std::stable_sort(rows.begin(), rows.end(),
                     [](const RankRecord& a, const RankRecord& b) { return a.rank < b.rank; });
    CheckedRanks out;
    std::vector<std::string> problems;
    std::int64_t outside = 0, repeated = 0, firstMissing = -1;
    std::string firstOutside, firstRepeated;
    std::int64_t expected = 0; // the next rank a whole world would have
    for (RankRecord& r : rows) {
        if (r.rank < 0 || r.rank >= world) {
            if (outside++ == 0)
                firstOutside = std::to_string(r.rank);
            continue;
        }
        if (!out.ranks.empty() && out.ranks.back().rank == r.rank) {
            if (repeated++ == 0)
                firstRepeated = std::to_string(r.rank);
            continue;
        }
        if (firstMissing < 0 && r.rank > expected)
            firstMissing = expected;
        expected = std::int64_t(r.rank) + 1;
        out.ranks.push_back(std::move(r));
    }
    const std::int64_t missing = std::max<std::int64_t>(world, 0) - std::int64_t(out.ranks.size());
    if (firstMissing < 0 && missing > 0)
        firstMissing = expected;
    if (world < 1)
        problems.push_back("a world of " + std::to_string(world) + " ranks");
    if (outside > 0)
        problems.push_back(
            "rank " + firstOutside +
            (world >= 1 ? " outside the world of " + std::to_string(world) + " (ranks 0.." +
                              std::to_string(world - 1) + ")"
                        : std::string(" outside the world")) +
            (outside > 1 ? " and " + std::to_string(outside - 1) + " more such rows" : ""));
    if (repeated > 0)
        problems.push_back(
            "rank " + firstRepeated + " twice" +
            (repeated > 1 ? " and " + std::to_string(repeated - 1) + " more repeated rows" : ""));
    if (missing > 0)
        problems.push_back(std::to_string(missing) + " of the " + std::to_string(world) +
                           " ranks missing (the first: rank " + std::to_string(firstMissing) + ")");
    for (const std::string& p : problems)
        out.problem += (out.problem.empty() ? "" : "; ") + p;
    return out;
}

std::int64_t worldAtStep(const RunInfo& info, const std::vector<Segment>& segments,
                         std::int64_t step) {
    const Segment* s = segmentAt(segments, step);
    return s ? s->world : info.world;
}

} // namespace zerolab
