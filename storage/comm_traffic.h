// Traffic per rank per optimizer step: the bytes one rank sends for a collective under
// ring algorithms, per byte of the collective's whole buffer (nccl-tests' size). One
// definition for the runtime's measurement, the store, the planner's forecast and the GUI.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace zerolab {

enum class Collective : int { AllReduce = 0, ReduceScatter, AllGather, Broadcast };
inline constexpr std::size_t kCollectiveCount = 4;
// Names in metric lines, store columns and JSON: "<name>_traffic_bytes", "<name>_ms".
inline constexpr std::array<std::string_view, kCollectiveCount> kCollectiveNames = {
    "allreduce", "reduce_scatter", "allgather", "broadcast"};

inline constexpr std::string_view collectiveName(Collective c) {
    return kCollectiveNames[static_cast<std::size_t>(c)];
}
inline std::optional<Collective> collectiveFromName(std::string_view name) {
    for (std::size_t i = 0; i < kCollectiveCount; ++i)
        if (kCollectiveNames[i] == name)
            return static_cast<Collective>(i);
    return std::nullopt;
}

// Bytes a rank sends per byte of buffer: all-reduce 2(N-1)/N (a ring reduce-scatter
// then all-gather), reduce-scatter and all-gather (N-1)/N, broadcast (N-1)/N (a
// pipelined ring: N-1 of the N ranks forward the buffer, averaged per rank). 0 at N = 1,
// where nothing moves. nccl-tests' bus-bandwidth factors are the same but for
// broadcast, whose bus factor is 1.
inline constexpr double ringTrafficFactor(Collective c, int world) {
    if (world < 2)
        return 0;
    const double f = (world - 1) / static_cast<double>(world);
    return c == Collective::AllReduce ? 2 * f : f;
}

// Bytes a rank sends to all-to-all peers per byte of its send buffer: (N-1)/N.
inline constexpr double allToAllTrafficFactor(int world) {
    return world < 2 ? 0 : (world - 1) / static_cast<double>(world);
}

// Traffic by link class: to ranks of this rank's host, and to ranks of other hosts (hosts
// are groups of consecutive ranks, config run.ranks_per_host). A ring collective over n
// ranks spanning h hosts crosses a host boundary on h of its n links (none when h = 1):
// a fraction h/n of its traffic, averaged over its ranks, goes across; an all-to-all
// sends each peer its block, across where the peer is on another host.
struct LinkTraffic {
    double within = 0;
    double across = 0;
    double total() const { return within + across; }
    LinkTraffic& operator+=(const LinkTraffic& o) {
        within += o.within;
        across += o.across;
        return *this;
    }
};
inline constexpr double ringAcrossFraction(int n, int hosts) {
    return hosts < 2 || n < 1 ? 0 : hosts / static_cast<double>(n);
}

// The store's and metric lines' columns after the per-kind traffic (schema v11): the
// all-to-alls' traffic and the total by link class, in CommTraffic's order below.
inline constexpr std::size_t kLinkColumnCount = 3;
inline constexpr std::array<std::string_view, kLinkColumnCount> kLinkColumnNames = {
    "alltoall_traffic_bytes", "within_traffic_bytes", "across_traffic_bytes"};

// Traffic per collective kind, in bytes; all-to-all (ZeRO++'s qgZ) apart, since the
// collective kinds are fixed store columns; and the same total by link class.
struct CommTraffic {
    std::array<double, kCollectiveCount> bytes{};
    double alltoall = 0;
    LinkTraffic link;
    double& operator[](Collective c) { return bytes[static_cast<std::size_t>(c)]; }
    double operator[](Collective c) const { return bytes[static_cast<std::size_t>(c)]; }
    // alltoall, link.within, link.across: kLinkColumnNames' order.
    std::array<double, kLinkColumnCount> linkColumns() const {
        return {alltoall, link.within, link.across};
    }
    void setLinkColumns(const std::array<double, kLinkColumnCount>& v) {
        alltoall = v[0];
        link.within = v[1];
        link.across = v[2];
    }
    double total() const {
        double t = alltoall;
        for (double b : bytes)
            t += b;
        return t;
    }
};

} // namespace zerolab
