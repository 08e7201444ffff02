// The placement event's text (ranks grouped by host) and the oversubscription warning's.
#include "runtime/train/rank_placement.h"

#include <algorithm>
#include <sstream>

namespace zerolab {

std::optional<std::string> placementMessage(const std::vector<RankProcess>& ranks) {
    std::vector<RankProcess> sorted = ranks;
    std::sort(sorted.begin(), sorted.end(),
              [](const RankProcess& a, const RankProcess& b) { return a.rank < b.rank; });
    std::vector<std::pair<std::string, std::vector<int>>> hosts;
    for (const RankProcess& r : sorted) {
        auto it = std::find_if(hosts.begin(), hosts.end(),
                               [&](const auto& h) { return h.first == r.host; });
        if (it == hosts.end()) {
            hosts.emplace_back(r.host, std::vector<int>{});
            it = hosts.end() - 1;
        }
        it->second.push_back(r.rank);
    }
    if (hosts.size() < 2)
        return std::nullopt;
    std::ostringstream msg;
    msg << sorted.size() << " ranks on " << hosts.size() << " hosts: ";
    for (std::size_t h = 0; h < hosts.size(); ++h) {
        const auto& [host, list] = hosts[h];
        msg << (h ? "; " : "") << host << (list.size() == 1 ? " has rank " : " has ranks ");
        for (std::size_t i = 0; i < list.size(); ++i)
            msg << (i ? ", " : "") << list[i];
    }
    return msg.str();
}

std::optional<std::string> oversubscriptionMessage(const std::vector<RankProcess>& ranks,
                                                   const std::string& host, int threads_per_rank,
                                                   int cores) {
    const auto here = std::count_if(ranks.begin(), ranks.end(),
                                    [&](const RankProcess& r) { return r.host == host; });
    const long long wanted = static_cast<long long>(here) * threads_per_rank;
    if (wanted <= cores)
        return std::nullopt;
    std::ostringstream msg;
    msg << "oversubscribed: " << here << " ranks x " << threads_per_rank
        << (threads_per_rank == 1 ? " thread" : " threads") << " on " << host << "'s " << cores
        << (cores == 1 ? " core" : " cores") << ": the ranks take turns on the cores, each at "
        << "about " << cores * 100 / wanted << "% of a core, so every step is slower than "
        << "this configuration with a core per thread";
    return msg.str();
}

} // namespace zerolab
