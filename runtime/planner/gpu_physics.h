// The physics of a GPU preset's step (issue 37, item 3): what an engine of today's class
// (flash attention, bf16 activations, fused kernels, NCCL; llm.c, PyTorch FSDP, DeepSpeed)
// spends on a GPU, not what zerolab's own GPU engine spends today. Matmuls by shape (a
// roofline of their bytes against the HBM, under a ceiling measured on the GPU, with the
// waves of output tiles over the SMs and each tile's K-loop fill), flash attention's
// causal tiles at the flash kernels' achieved rate, elementwise kernels by the bytes they
// move at the activation dtype, and NCCL's collectives (ring or tree, its per-hop
// latencies, the achievable bus bandwidth inside a node, the node's NICs between nodes).
// Every constant and its source: docs/planner.md, "GPU physics". Pure arithmetic.
#pragma once

#include "runtime/model/kernel_ops.h"
#include "runtime/model/model_shape.h"
#include "runtime/planner/machine_profile.h"

#include <vector>

namespace zerolab {

// Seconds of one GEMM out[M, N] = A[M, K] B[K, N] on `gpu`: the slower of its tensor-core
// time at gemmEfficiency and its HBM traffic (A, B and out once each, at 2 bytes an element
// for bf16, 4 for fp32) at the memory fraction. Throws PlanError for a dimension below 1.
double gemmSeconds(const GpuModel& gpu, double M, double N, double K);
// The share of the peak a GEMM of that shape reaches where it is compute-bound: the
// GPU's ceiling (the best shape's measured rate) times the wave efficiency of its output
// tiles over the SMs (split along K where too few tiles fill them) times the K-loop's fill,
// relative to the ceiling shape's. Rises toward the ceiling as M, N and K grow.
double gemmEfficiency(const GpuModel& gpu, double M, double N, double K);
// A matmul op of the model (kernel_ops.h: forward out[m, n] = inp[m, k] W[n, k]^T, one
// GEMM; backward the input's gradient [m, k] over n and the weight's [n, k] over m).
double matmulOpSeconds(const GpuModel& gpu, const KernelOp& op);

// FLOPs of causal flash attention over B sequences of T, H query heads of head_dim: the
// tiles the kernel computes (Br = Bc = min(128, T): the diagonal's tiles in full, those
// above it skipped), two matmuls of 2 FLOPs a multiply-add each forward; backward 2.5
// times forward (its five matmuls, the recomputed scores among them).
inline constexpr int kFlashTile = 128;
double flashAttentionFlops(int B, int T, int n_head, int head_dim, bool forward);

// The model's kernels as an engine of today's class runs them on a GPU: attention, by
// either kind (AttentionForward/Backward, the standard kernel's; FlashAttention*, the
// flash kernel's), becomes flash attention with flashAttentionFlops at B, T; every other
// op is kept.
std::vector<KernelOp> gpuEngineOps(std::vector<KernelOp> ops, const ModelShape& shape, int B,
                                   int T);

// Bytes an elementwise kernel of `kind` moves per element, at `activation_bytes` an
// activation element (2: bf16, 4: fp32): its operands read and written once (a fused
// kernel's). The optimizer and engine kinds work on fp32 masters and states, whatever the
// activation dtype. Throws PlanError for a kind that counts FLOPs.
double elementwiseBytes(OpKind kind, double activation_bytes);

// NCCL's cost model for one collective of `bytes` (the whole buffer, nccl-tests' size)
// over `ranks` ranks on `hosts` hosts (ranks / hosts a host): latency (NCCL's base latency
// and its per-step latency on NVLink and on the network, tuning.cc) plus the slower of the
// ring traffic on the link inside a host at its bus efficiency and the traffic each node's
// NICs carry (ringTrafficFactor over the hosts, the node's bandwidth: the per-GPU rate
// times GPUs a host) at theirs; an all-reduce across hosts the faster of ring and tree.
// The links are the profile's intra_link and inter_link (bytes_per_s per GPU, each way).
// Throws PlanError when hosts > 1 and the profile has no inter_link.
double ncclSeconds(const MachineProfile& p, Collective c, int ranks, int hosts, double bytes);

// NCCL's latencies (microseconds; src/graph/tuning.cc, ncclTunerConstantsDefaults, the
// Simple protocol large transfers use): a collective's base, and a step of a ring or of a
// tree on NVLink and on the network.
inline constexpr double kNcclBaseLatencyUs = 8.4;
inline constexpr double kNcclRingNvlinkStepUs = 3.4;
inline constexpr double kNcclRingNetStepUs = 14.0;
inline constexpr double kNcclTreeNvlinkStepUs = 4.0;
inline constexpr double kNcclTreeNetStepUs = 14.0;
// NCCL's tree bandwidth against the ring's (tuning.cc: busBw *= .85 for the tree pattern).
inline constexpr double kNcclTreeBandwidthShare = 0.85;

// The CTAs (channels) a collective's NCCL kernel holds while it is in flight, one per
// channel, each on an SM of its own for the collective's whole time: 24 on an 8-GPU
// NVSwitch node of A100 or H100. NCCL's own search (src/graph/search.cc, connect.cc):
// A100 12 NVLinks x 20.0 GB/s (SM80_NVLINK_BW) = 240 GB/s, 6 ring channels at its first
// intra-node speed of 40 GB/s; H100 18 x 20.6 (SM90_NVLINK_BW) = 370.8 GB/s, 6 at 60 GB/s;
// ncclTopoDupChannels doubles them (12) and connectRings doubles them again (24). An
// nsys trace of an all-gather beside a GEMM on H100 (NVIDIA developer forum, "Compute-
// Communication Overlap Causes Severe GEMM Performance Degradation because of Tail
// Effect") shows ncclAllGather launched with 24 blocks. docs/planner.md, "GPU physics".
inline constexpr int kNcclChannels = 24;
// HBM bytes NCCL moves per byte its ring carries on a GPU's link: each byte sent is read
// from HBM and each byte received written to it (a reduction's extra read not counted).
inline constexpr double kNcclHbmBytesPerLinkByte = 2;

// The GPU as compute sees it while a collective over `ranks` ranks on `hosts` hosts is in
// flight: kNcclChannels of its SMs held by NCCL (the peak and the shape-less FLOP rates
// scaled by the SMs left, a GEMM's waves over the SMs left) and NCCL's HBM traffic
// (kNcclHbmBytesPerLinkByte x the ring's bytes a second on a GPU's link, from ncclSeconds
// of a large all-gather) taken from the bandwidth every memory-bound kernel reaches. The
// profile itself where it has no GPU model or ranks < 2. Throws PlanError as ncclSeconds.
MachineProfile besideCollective(const MachineProfile& p, int ranks, int hosts);

} // namespace zerolab
