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

// Traffic per collective kind, in bytes.
struct CommTraffic {
    std::array<double, kCollectiveCount> bytes{};
    double& operator[](Collective c) { return bytes[static_cast<std::size_t>(c)]; }
    double operator[](Collective c) const { return bytes[static_cast<std::size_t>(c)]; }
    double total() const {
        double t = 0;
        for (double b : bytes)
            t += b;
        return t;
    }
};

} // namespace zerolab
