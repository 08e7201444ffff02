// ZeRO++'s groups of P consecutive ranks and the link classes of what a group's collectives
// send: which ranks a sub-communicator holds, and the bytes a ring collective or an
// all-to-all over them sends within a host and across hosts. One definition for every
// communicator's split and counting (MPI, NCCL); header-only, so any layer can call it.
#pragma once

#include "storage/comm_traffic.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace zerolab {

// ZeRO++'s sub-communicators over groups of P consecutive ranks (P divides the world):
// Within, the P ranks of this rank's group (ranks g*P .. g*P+P-1); Across, the ranks with
// this rank's place in its group (rank % P, rank % P + P, ...), one per group.
enum class CommGroup { Within, Across };

// Whether groups of P ranks tile a world of `world` ranks.
inline constexpr bool groupsDivide(int P, int world) {
    return P >= 1 && world % P == 0;
}

// The colour that names rank's group g (the ranks that share it form one sub-communicator).
inline constexpr int groupColor(CommGroup g, int rank, int P) {
    return g == CommGroup::Within ? rank / P : rank % P;
}

// The world ranks of rank's group g, in their sub-communicator's rank order (world order).
inline std::vector<int> groupRanks(CommGroup g, int rank, int P, int world) {
    std::vector<int> ranks;
    for (int r = 0; r < world; ++r)
        if (groupColor(g, r, P) == groupColor(g, rank, P))
            ranks.push_back(r);
    return ranks;
}

// The host (link class) of each member of a communicator, in member order, and what its
// collectives send by link class.
class MemberHosts {
public:
    explicit MemberHosts(std::vector<int> hostOfMember) : m_host(std::move(hostOfMember)) {
        // Consecutive ranks per host come sorted: then a count of changes, without the copy
        // (the planner builds these for every N of a lesson's scaling chart, up to thousands).
        if (std::is_sorted(m_host.begin(), m_host.end())) {
            m_hosts = m_host.empty() ? 0 : 1;
            for (std::size_t i = 1; i < m_host.size(); ++i)
                m_hosts += m_host[i] != m_host[i - 1];
            return;
        }
        std::vector<int> h = m_host;
        std::sort(h.begin(), h.end());
        m_hosts = static_cast<int>(std::unique(h.begin(), h.end()) - h.begin());
    }
    // `world` ranks on one host.
    static MemberHosts oneHost(int world) {
        return MemberHosts(std::vector<int>(static_cast<std::size_t>(world), 0));
    }
    // `world` ranks, `ranksPerHost` consecutive ranks per host (it divides world).
    static MemberHosts consecutive(int world, int ranksPerHost) {
        std::vector<int> h;
        for (int r = 0; r < world; ++r)
            h.push_back(r / ranksPerHost);
        return MemberHosts(std::move(h));
    }

    int size() const { return static_cast<int>(m_host.size()); }
    int hosts() const { return m_hosts; }
    int hostOf(int member) const { return m_host[static_cast<std::size_t>(member)]; }
    // The members' hosts of member rank's group g, for groups of P (this is the world).
    MemberHosts group(CommGroup g, int rank, int P) const {
        std::vector<int> h;
        for (int r : groupRanks(g, rank, P, size()))
            h.push_back(hostOf(r));
        return MemberHosts(std::move(h));
    }
    // A ring collective sending `traffic` bytes per rank over these members: a fraction
    // hosts/n of it crosses a host boundary (storage/comm_traffic.h).
    LinkTraffic ring(double traffic) const {
        LinkTraffic l;
        l.across = traffic * ringAcrossFraction(size(), m_hosts);
        l.within = traffic - l.across;
        return l;
    }
    // An all-to-all from member `me`, `block` bytes to each other member: exact per peer.
    LinkTraffic allToAll(double block, int me) const {
        LinkTraffic l;
        for (int j = 0; j < size(); ++j)
            if (j != me)
                (hostOf(j) == hostOf(me) ? l.within : l.across) += block;
        return l;
    }

private:
    std::vector<int> m_host;
    int m_hosts = 1;
};

} // namespace zerolab
