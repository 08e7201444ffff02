// ZeRO++'s plan (zeropp_plan.h): the buffers of qwZ, hpZ and qgZ and the bytes each of the
// engine's collectives sends, following runtime/engine/zeropp_reduce.cpp and param_gather.cpp.
#include "runtime/planner/zeropp_plan.h"

#include "runtime/planner/planner.h"
#include "storage/comm_groups.h"

#include <algorithm>

namespace zerolab {

namespace {

std::int64_t sliceOf(const ParamLayout& layout, int u, int world) {
    return layout.units[static_cast<std::size_t>(u)].padded_elems / world;
}

} // namespace

int linkHostSize(int ranks_per_host, int hpz_partition_size, int world) {
    if (ranks_per_host > 0)
        return ranks_per_host;
    if (hpz_partition_size > 1)
        return hpz_partition_size;
    return std::max(1, world);
}

ZeroPPOptions zeroppOptions(const PlanInput& in, int stage) {
    ZeroPPOptions o;
    o.ranks_per_host = linkHostSize(in.ranks_per_host, in.hpz_partition_size, in.world);
    o.n_embd = in.shape ? in.shape->n_embd : 1;
    if (stage != 3)
        return o;
    o.qwz = in.quantized_weights;
    o.hpz = std::max(1, in.hpz_partition_size);
    o.qgz = in.quantized_gradients;
    return o;
}

std::optional<std::string> qgzFallback(const ParamLayout& layout, int unit, int world) {
    const auto& U = layout.units[static_cast<std::size_t>(unit)];
    if (unit == layout.unitCount() - 1)
        return "unit " + std::to_string(unit) + " (the final layernorm) holds 1-D tensors";
    if (U.padded_elems % (2 * static_cast<std::int64_t>(world)) != 0)
        return "unit " + std::to_string(unit) + "'s " + std::to_string(U.padded_elems) +
               " elements are not a multiple of 2N = " + std::to_string(2 * world);
    return std::nullopt;
}

void addZeroPPBuffers(EngineBufferPlan& p, const ParamLayout& layout, const ZeroPPOptions& o) {
    if (p.stage != 3 || !o.any())
        return;
    const int N = p.world;
    if (o.hpz > 1)
        p.secondary_params = layout.padded_total / o.hpz;
    if (o.qwz) {
        auto payload = [&](int u) {
            const std::int64_t S = sliceOf(layout, u, N);
            return N * qwzFormat(S).payloadBytes(S);
        };
        p.qwz_embedding_payload = payload(0);
        for (int u = 1; u < layout.unitCount(); ++u)
            p.qwz_block_payload = std::max(p.qwz_block_payload, payload(u));
    }
    if (o.qgz) {
        const int L = o.ranks_per_host, H = N / L;
        const BlockFormat f = qgzFormat(o.n_embd);
        std::int64_t slicePayload = 0;
        for (int u = 0; u < layout.unitCount(); ++u)
            if (!qgzFallback(layout, u, N))
                slicePayload = std::max(slicePayload, f.payloadBytes(sliceOf(layout, u, N)));
        p.qgz_hop1 = static_cast<std::int64_t>(L) * H * slicePayload;
        p.qgz_hop2 = static_cast<std::int64_t>(H) * slicePayload;
    }
}

std::vector<int> withinGroupHosts(int rank, int P, int ranks_per_host) {
    std::vector<int> hosts;
    for (int r : groupRanks(CommGroup::Within, rank, P, (rank / P + 1) * P))
        hosts.push_back(r / ranks_per_host);
    return hosts;
}

std::vector<int> acrossGroupHosts(int rank, int P, int world, int ranks_per_host) {
    std::vector<int> hosts;
    for (int r : groupRanks(CommGroup::Across, rank, P, world))
        hosts.push_back(r / ranks_per_host);
    return hosts;
}

LinkTraffic ringLinkTraffic(double traffic, const std::vector<int>& memberHosts) {
    return MemberHosts(memberHosts).ring(traffic);
}

LinkTraffic worldRingLinkTraffic(double traffic, int world, int ranks_per_host) {
    const int rph = std::clamp(ranks_per_host, 1, std::max(1, world));
    LinkTraffic l;
    l.across = traffic * ringAcrossFraction(world, (world + rph - 1) / rph);
    l.within = traffic - l.across;
    return l;
}

LinkTraffic allToAllLinkTraffic(double block, const std::vector<int>& memberHosts, int me) {
    return MemberHosts(memberHosts).allToAll(block, me);
}

CommTraffic stage3StepTraffic(const ParamLayout& layout, const EngineBufferPlan& plan,
                              const ZeroPPOptions& o, int accumulation) {
    const int N = plan.world;
    const int rph = std::clamp(o.ranks_per_host, 1, N);
    const double esz = plan.precision == Precision::Bf16Mixed ? 2 : 4;
    // Gradients at their own dtype: fp32 under data_types.grad_accum_dtype (engine_buffers.h).
    const double gsz = plan.grads_fp32 ? 4 : esz;
    const std::vector<int> world = withinGroupHosts(0, N, rph);
    CommTraffic t;
    auto ring = [&](Collective c, double bytes, const std::vector<int>& hosts, int calls) {
        const double traffic = calls * bytes * ringTrafficFactor(c, static_cast<int>(hosts.size()));
        t[c] += traffic;
        t.link += ringLinkTraffic(traffic, hosts);
    };
    const Stage3Gathers g = stage3Gathers(layout, plan.gather_block_slots, accumulation);
    for (const auto& U : layout.units) {
        const int u = U.index;
        const std::int64_t S = U.padded_elems / N;
        // Forward (and without hpZ, backward): the world all-gather, int8 under qwZ.
        const double worldGather =
            o.qwz ? static_cast<double>(N * qwzFormat(S).payloadBytes(S)) : U.padded_elems * esz;
        const int fwd = g.forward[static_cast<std::size_t>(u)];
        const int bwd = g.backward[static_cast<std::size_t>(u)];
        ring(Collective::AllGather, worldGather, world, o.hpz > 1 ? fwd : fwd + bwd);
        // hpZ: backward gathers the secondary shard inside the group.
        if (o.hpz > 1)
            ring(Collective::AllGather, U.padded_elems * esz, withinGroupHosts(0, o.hpz, rph), bwd);
        // Gradients, every micro-step: a reduce-scatter, or qgZ's two all-to-alls.
        if (!o.qgz || qgzFallback(layout, u, N)) {
            ring(Collective::ReduceScatter, U.padded_elems * gsz, world, accumulation);
            continue;
        }
        const int L = rph, H = N / L;
        const double slicePayload = static_cast<double>(qgzFormat(o.n_embd).payloadBytes(S));
        const double hop1 = H * slicePayload, hop2 = slicePayload;
        t.alltoall += accumulation * (hop1 * (L - 1) + hop2 * (H - 1));
        for (int m = 0; m < accumulation; ++m) {
            t.link += allToAllLinkTraffic(hop1, withinGroupHosts(0, L, rph), 0);
            t.link += allToAllLinkTraffic(hop2, acrossGroupHosts(0, L, N, rph), 0);
        }
    }
    return t;
}

} // namespace zerolab
