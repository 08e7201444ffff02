// The link classes from host names (link_hosts.h).
#include "runtime/train/link_hosts.h"

#include <cstdio>
#include <string>

namespace zerolab {

namespace {

// "a has ranks 0, 1; b has ranks 2, 3" for the first hosts, in the order of their ranks.
std::string placement(const std::vector<std::string>& hosts) {
    std::vector<std::pair<std::string, std::string>> by;
    for (std::size_t r = 0; r < hosts.size(); ++r) {
        auto it = by.begin();
        while (it != by.end() && it->first != hosts[r])
            ++it;
        if (it == by.end())
            it = by.insert(by.end(), {hosts[r], ""});
        it->second += (it->second.empty() ? "" : ", ") + std::to_string(r);
    }
    std::string out;
    for (std::size_t h = 0; h < by.size() && h < 4; ++h)
        out += (h ? "; " : "") + by[h].first + " has ranks " + by[h].second;
    if (by.size() > 4)
        out += "; and " + std::to_string(by.size() - 4) + " more hosts";
    return out;
}

// The ranks per host where the names come in equal blocks of consecutive ranks, each
// block a host of its own; else 0.
int blockSize(const std::vector<std::string>& hosts) {
    const std::size_t n = hosts.size();
    std::size_t L = 1;
    while (L < n && hosts[L] == hosts[0])
        ++L;
    if (n % L != 0)
        return 0;
    for (std::size_t b = 0; b < n; b += L) {
        for (std::size_t r = b; r < b + L; ++r)
            if (hosts[r] != hosts[b])
                return 0;
        for (std::size_t c = 0; c < b; c += L)
            if (hosts[c] == hosts[b])
                return 0;
    }
    return static_cast<int>(L);
}

} // namespace

LinkHosts resolveLinkHosts(const TrainConfig& config, const std::vector<std::string>& hosts) {
    LinkHosts out;
    const int n = static_cast<int>(hosts.size());
    bool oneHost = true;
    for (const auto& h : hosts)
        oneHost = oneHost && h == hosts.front();
    if (n < 2 || oneHost)
        return out;
    const int rph = config.run.ranks_per_host;
    const bool zeropp = config.zero.stage == 3 &&
                        (config.zero.hpz_partition_size > 1 || config.zero.quantized_gradients);
    const int L = blockSize(hosts);
    const std::string where = " (the ranks' host names: " + placement(hosts) + ")";
    if (L == 0) {
        if (rph > 0 || zeropp) {
            out.error = std::string(rph > 0 ? "run.ranks_per_host" : "zero_optimization") +
                        ": link classes need each host's ranks consecutive and equally many" +
                        where + "; place ranks by slot (mpirun --map-by slot)";
            return out;
        }
        out.note = "traffic is counted as if every rank were on one host: the hosts do not hold "
                   "equally many consecutive ranks" +
                   where;
        return out;
    }
    if (rph > 0 && rph != L) {
        out.error = "run.ranks_per_host: " + std::to_string(rph) + " ranks per host, but " +
                    std::to_string(L) + " ranks share each host" + where + "; set it to " +
                    std::to_string(L) + " or leave it out";
        return out;
    }
    const int P = config.zero.hpz_partition_size;
    if (config.zero.stage == 3 && P > 1 && L % P != 0) {
        out.error = "zero_optimization.zero_hpz_partition_size: groups of " + std::to_string(P) +
                    " ranks span two hosts with " + std::to_string(L) + " ranks each" + where +
                    "; hpZ's secondary shard must stay within a host: use a divisor of " +
                    std::to_string(L);
        return out;
    }
    if (rph == 0)
        out.ranks_per_host = L;
    return out;
}

std::vector<std::string> rankHosts(Communicator& comm) {
    constexpr std::size_t kBytes = 256; // above HOST_NAME_MAX (64)
    char mine[kBytes] = {};
    std::snprintf(mine, kBytes, "%s", comm.host().c_str());
    std::vector<char> all(comm.size() * kBytes);
    comm.gatherBytes(mine, kBytes, comm.rank() == 0 ? all.data() : nullptr);
    comm.broadcastBytes(all.data(), all.size(), 0);
    std::vector<std::string> hosts;
    for (int r = 0; r < comm.size(); ++r)
        hosts.emplace_back(all.data() + r * kBytes);
    return hosts;
}

} // namespace zerolab
