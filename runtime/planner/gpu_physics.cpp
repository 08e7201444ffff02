// A GPU preset's physics (gpu_physics.h). Sources of every constant: docs/planner.md,
// "GPU physics".
#include "runtime/planner/gpu_physics.h"

#include "runtime/planner/planner.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace zerolab {

namespace {

// cuBLAS's large bf16 tiles: 256 x 128 outputs a thread block (NVIDIA, "Matrix
// Multiplication Background User's Guide", tile and wave quantization). One wave runs one
// tile per SM.
constexpr double kTileM = 256, kTileN = 128;
// A tile's K-loop spends about this much K on its prologue (the pipeline's first loads)
// and epilogue (writing the tile out): a tile of K costs as K + kKFill would at full rate.
constexpr double kKFill = 128;
// Split-K (cuBLAS splits K when the output has too few tiles to fill the SMs) keeps at
// least this much K per split.
constexpr double kSplitMinK = 512;
constexpr int kMaxSplit = 64;

double fill(double k) {
    return k / (k + kKFill);
}

void checkDims(double M, double N, double K) {
    for (const double d : {M, N, K})
        if (!(d >= 1) || !std::isfinite(d))
            throw PlanError("a GEMM dimension must be at least 1, got " + std::to_string(d));
}

} // namespace

double gemmEfficiency(const GpuModel& gpu, double M, double N, double K) {
    checkDims(M, N, K);
    const double mt = std::ceil(M / kTileM), nt = std::ceil(N / kTileN);
    // The tiles' share of useful outputs: the last row and column of tiles are partly empty.
    const double quantization = M * N / (mt * kTileM * nt * kTileN);
    const double tiles = mt * nt;
    // The split that fills the whole GPU best (cuBLAS chooses it for every SM, unaware of a
    // collective holding some), run on the SMs there are.
    auto efficiency = [&](int s, double sms) {
        const double work = tiles * s;
        return work / (std::ceil(work / sms) * sms) * fill(K / s);
    };
    const double whole = gpu.sms + gpu.held_sms;
    int split = 1;
    for (int s = 2; s <= kMaxSplit && K / s >= kSplitMinK; ++s)
        if (efficiency(s, whole) > efficiency(split, whole))
            split = s;
    return gpu.matmul_ceiling / fill(gpu.ceiling_k) * quantization * efficiency(split, gpu.sms);
}

double gemmSeconds(const GpuModel& gpu, double M, double N, double K) {
    const double flops = 2 * M * N * K;
    const double compute = flops / (gpu.peak_flops * gemmEfficiency(gpu, M, N, K));
    const double bytes = gpu.activation_bytes * (M * K + K * N + M * N);
    const double memory = bytes / (gpu.memory_bytes_per_s * gpu.memory_fraction);
    return std::max(compute, memory);
}

double matmulOpSeconds(const GpuModel& gpu, const KernelOp& op) {
    const auto m = static_cast<double>(op.m), k = static_cast<double>(op.k),
               n = static_cast<double>(op.n);
    if (op.kind == OpKind::MatmulForward)
        return gemmSeconds(gpu, m, n, k);
    // The input's gradient d_inp[m, k] = d_out[m, n] W[n, k]; the weight's d_W[n, k] =
    // d_out^T[n, m] inp[m, k]: its K is the tokens, its output the weight's small matrix.
    return gemmSeconds(gpu, m, k, n) + gemmSeconds(gpu, n, k, m);
}

double flashAttentionFlops(int B, int T, int n_head, int head_dim, bool forward) {
    if (B < 1 || T < 1 || n_head < 1 || head_dim < 1)
        throw PlanError("flash attention needs B, T, heads and head_dim of at least 1, got B " +
                        std::to_string(B) + ", T " + std::to_string(T) + ", " +
                        std::to_string(n_head) + " heads of " + std::to_string(head_dim));
    const double tile = std::min(kFlashTile, T);
    const double blocks = std::ceil(T / tile);
    // Tiles on and below the diagonal: blocks (blocks + 1) / 2 of tile x tile scores.
    const double scores = tile * tile * blocks * (blocks + 1) / 2;
    // Q K^T and P V: 2 FLOPs a multiply-add, head_dim each, per score.
    const double fwd = 4.0 * B * n_head * head_dim * scores;
    return forward ? fwd : 2.5 * fwd;
}

std::vector<KernelOp> gpuEngineOps(std::vector<KernelOp> ops, const ModelShape& shape, int B,
                                   int T) {
    for (KernelOp& op : ops) {
        const bool fwd =
            op.kind == OpKind::AttentionForward || op.kind == OpKind::FlashAttentionForward;
        const bool bwd =
            op.kind == OpKind::AttentionBackward || op.kind == OpKind::FlashAttentionBackward;
        if (!fwd && !bwd)
            continue;
        op = {fwd ? OpKind::FlashAttentionForward : OpKind::FlashAttentionBackward,
              flashAttentionFlops(B, T, shape.n_head, shape.headDim(), fwd)};
    }
    return ops;
}

double elementwiseBytes(OpKind kind, double a) {
    switch (kind) {
    case OpKind::LayernormForward: // x in, y out (the row's mean and rstd are negligible)
    case OpKind::RmsnormForward:
    case OpKind::GeluForward:
    case OpKind::Rope:
    case OpKind::SoftmaxCrossEntropy: // the logits in, the probabilities out
    case OpKind::CrossEntropyBackward:
        return 2 * a;
    case OpKind::Residual:     // two in, one out
    case OpKind::GeluBackward: // x and dy in, dx out
    case OpKind::SwigluForward:
    case OpKind::EncoderForward: // the token's and the position's rows in, one out
        return 3 * a;
    case OpKind::LayernormBackward: // dy, x in; dx out, added to the residual's gradient
    case OpKind::RmsnormBackward:
    case OpKind::EncoderBackward:
        return 4 * a;
    case OpKind::SwigluBackward: // gate, up, dy in; d_gate, d_up out
        return 5 * a;
    case OpKind::Zero: // written once
        return a;
    case OpKind::Cast: // fp32 in, bf16 out (or back)
        return 6;
    case OpKind::Axpy: // a bf16 gradient into an fp32 accumulator
        return 10;
    case OpKind::SumSquares: // the fp32 gradient shard read
        return 4;
    case OpKind::Adamw: // params, grads, m, v read; params, m, v written (fp32)
    case OpKind::AdamwMixed:
        return 32;
    default:
        break;
    }
    throw PlanError("no elementwise bytes for kernel " +
                    std::string(kOpKindNames[static_cast<std::size_t>(kind)]) +
                    ": it counts FLOPs");
}

double ncclSeconds(const MachineProfile& p, Collective c, int ranks, int hosts, double bytes) {
    if (ranks < 2)
        return 0;
    if (!p.gpu || !p.intra_link)
        throw PlanError("machine profile '" + p.name +
                        "' is not a GPU preset with a link in a "
                        "host: no NCCL model for it");
    if (hosts < 1 || ranks % hosts != 0)
        throw PlanError("hosts must divide the ranks: " + std::to_string(ranks) + " ranks on " +
                        std::to_string(hosts) + " hosts");
    if (hosts > 1 && !p.inter_link)
        throw PlanError("machine profile '" + p.name + "' has no link between hosts for " +
                        std::to_string(hosts) + " hosts");
    const GpuModel& g = *p.gpu;
    const int per_host = ranks / hosts;
    const bool all_reduce = c == Collective::AllReduce;
    // Ring: every rank's link in the host carries the ring's traffic; each node's NICs
    // carry the traffic over the hosts (the buffer's other hosts' shares, an all-reduce
    // twice), whichever NIC each ring crosses on.
    const double intra =
        bytes * ringTrafficFactor(c, ranks) / (p.intra_link->bytes_per_s * g.intra_bus_efficiency);
    double inter = 0;
    if (hosts > 1)
        inter = bytes * ringTrafficFactor(c, hosts) /
                (p.inter_link->bytes_per_s * per_host * g.inter_bus_efficiency);
    const int steps = all_reduce ? 2 * (ranks - 1) : ranks - 1;
    const int net_steps = hosts == 1 ? 0 : all_reduce ? 2 * (hosts - 1) : hosts - 1;
    const double ring_us = kNcclBaseLatencyUs + (steps - net_steps) * kNcclRingNvlinkStepUs +
                           net_steps * kNcclRingNetStepUs;
    const double ring = ring_us * 1e-6 + std::max(intra, inter);
    if (!all_reduce || hosts == 1)
        return ring;
    // Tree (NCCL's choice for small all-reduces across hosts): a chain in each host, a
    // binary tree over the hosts, up and down; at the tree's share of the ring's bandwidth.
    const double tree_us =
        kNcclBaseLatencyUs + 2 * ((per_host - 1) * kNcclTreeNvlinkStepUs +
                                  std::ceil(std::log2(hosts)) * kNcclTreeNetStepUs);
    const double tree = tree_us * 1e-6 + std::max(intra, inter) / kNcclTreeBandwidthShare;
    return std::min(ring, tree);
}

MachineProfile besideCollective(const MachineProfile& p, int ranks, int hosts) {
    if (!p.gpu || ranks < 2)
        return p;
    MachineProfile q = p;
    GpuModel& g = *q.gpu;
    const int sms = std::max(1, g.sms - kNcclChannels);
    const double sm_share = static_cast<double>(sms) / g.sms;
    // The ring's bytes a second on one GPU's link, a large all-gather's (latency a rounding).
    const double bytes = 1024.0 * 1024 * 1024;
    const double link_rate = bytes * ringTrafficFactor(Collective::AllGather, ranks) /
                             ncclSeconds(p, Collective::AllGather, ranks, hosts, bytes);
    const double reached = g.memory_bytes_per_s * g.memory_fraction;
    const double left = std::max(0.05 * reached, reached - kNcclHbmBytesPerLinkByte * link_rate);
    const double hbm_share = left / reached;
    g.held_sms = g.sms - sms;
    g.sms = sms;
    g.peak_flops *= sm_share;
    g.memory_bytes_per_s *= hbm_share;
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        q.rates[i] *= opCountsFlops(static_cast<OpKind>(i)) ? sm_share : hbm_share;
    return q;
}

} // namespace zerolab
