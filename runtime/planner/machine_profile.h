// What the step-time model knows of a machine: the rate of every kernel the model and the
// engine run, the latency-bandwidth fit of every collective per link class and rank count,
// the cores and what sharing them costs. Measured by zerolab-calibrate ("calibrated") or
// taken from a datasheet preset ("preset", cluster_presets.h). Kept as a versioned JSON
// file (docs/planner.md, "Machine profile"); the reader refuses a bad or partial profile
// naming the file and the JSON path. Pure: no MPI.
#pragma once

#include "runtime/model/kernel_ops.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/unit_calls.h"
#include "storage/comm_traffic.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

inline constexpr std::string_view kMachineProfileFormat = "zerolab-machine-profile";
inline constexpr int kMachineProfileVersion = 1;

// Within a host (shared memory, NVLink) or between hosts (TCP, InfiniBand, Ethernet).
enum class LinkClass : int { IntraHost = 0, InterHost };
inline constexpr std::array<std::string_view, 2> kLinkClassNames = {"intra_host", "inter_host"};

// One matmul shape's rates: out[M, N] = inp[M, K] weight[N, K]^T (+ bias).
struct MatmulRate {
    long long m = 0, k = 0, n = 0;
    double forward_flops_per_s = 0;
    double backward_flops_per_s = 0;
};

// t(bytes) = latency_s + bytes / bytes_per_s for one collective over `ranks` ranks, bytes
// the collective's whole buffer (nccl-tests' size); worst_residual: the fit's largest
// relative error over the measured sizes. `points`: the steady-state measurements
// (bytes ascending, seconds per call) the fit was made from; where a profile has them,
// collectiveSeconds reads the time off them (between two measured sizes, the line through
// both), since a link's time is not one line over 1 KiB .. 64 MiB (TCP's protocol
// changes, Open MPI's algorithm switches). Empty for presets and older profiles.
struct CollectiveFit {
    Collective collective = Collective::AllReduce;
    LinkClass link = LinkClass::IntraHost;
    int ranks = 2;
    double latency_s = 0;
    double bytes_per_s = 0;
    double worst_residual = 0;
    std::vector<std::pair<double, double>> points;
};

// A fit whose worst residual is above this is not one latency-bandwidth line over its
// sizes: zerolab-calibrate flags it (the model then reads the measured points).
inline constexpr double kFitResidualBound = 0.25;

// A collective is measured in its steady state: calls back to back, as a step issues
// them, in batches of at least kSteadyBatchBytes (whole buffers) or kSteadyBatchSeconds,
// so that a link's burst allowance (tc tbf's token bucket: 64 KiB at 200 Mbit/s) is a
// small share of what a batch moves; 2 to kSteadyBatchMaxCalls calls. A single call after
// an idle pause passes inside the bucket and times the burst, not the link.
inline constexpr double kSteadyBatchBytes = 8.0 * 1024 * 1024;
inline constexpr double kSteadyBatchSeconds = 0.2;
inline constexpr int kSteadyBatchMaxCalls = 1024;
// The calls in one batch of `bytes` a call, whose first (warm-up) call took first_call_s.
int steadyBatchCalls(double bytes, double first_call_s);

// A preset link: per-rank bandwidth and per-hop latency; a ring collective over N ranks
// takes steps * latency + traffic / bandwidth (ringTrafficFactor).
struct LinkSpec {
    std::string key;   // "nvlink3", "ib-hdr", ...
    std::string label; // "InfiniBand HDR (200 Gb/s)"
    double bytes_per_s = 0;
    double latency_s = 0;
};

// The model's compute pieces (unit_calls.h's ModelCompute) timed in situ: a real network's
// forward and backward at one shape and micro-batch, clocked between the model's calls
// to the engine, so that every kernel, the model's own zeroing and the caches as a step
// leaves them are in them. Seconds per call of each piece (BlockForward: one block's),
// one rank alone, medians over repetitions; None's entry is 0. Measured with full
// recompute, which runs every piece; BlockRecompute is a full recompute's.
// The shape is the whole model whose time it is: its family, heads and kv heads, head
// width, FFN width, head tying, q/k/v biases and attention kernel too (llama-micro and
// GPT-2's micro share the first five numbers; a flash and a standard GPT-2 run apart).
// A profile written before those fields were kept timed GPT-2 with standard attention:
// the defaults below, which are GPT-2's.
struct ModelPieceTimes {
    int n_layer = 0, n_head = 0, n_embd = 0, vocab_size = 0, padded_vocab_size = 0;
    int seq_len = 0; // T
    int micro_batch = 0;
    // Per ModelCompute; 0 for a piece the model's calls never run (null in the JSON).
    std::array<double, kModelComputeCount> seconds{};
    Family family = Family::Gpt2;
    int n_kv_head = 0; // ModelShape::kvHeads(); 0: n_head
    int head_dim = 0;  // ModelShape::headDim(); 0: n_embd / n_head
    int ffn_dim = 0;   // ModelShape::ffn_dim (0: the family's own)
    bool tied_head = true;
    bool qkv_bias = false;
    AttentionKernel attention = AttentionKernel::Standard;
};
// The pieces timed for `shape` as calibrate_pieces.cpp keeps them.
ModelPieceTimes modelPieceKey(const ModelShape& shape, int B, int T);
// The pieces for `shape` at B, T (the same model, every field of the key), or nullptr.
const ModelPieceTimes* findModelPieces(const std::vector<ModelPieceTimes>& pieces,
                                       const ModelShape& shape, int B, int T);

// A yardstick of the machine's speed: one forward and backward of a model preset at a
// micro-batch (no recompute, one rank alone), its median over the calibration's rounds.
// zerolab-calibrate --check times it again and says how much faster or slower the machine
// runs now than when the profile was measured (a shared VM's speed drifts by the minute).
struct ReferencePass {
    std::string model; // a preset's name
    int micro_batch = 1;
    double seconds = 0;
};

// A GPU preset's physics (gpu_physics.h, cluster_presets.h): what its matmuls, flash
// attention, elementwise kernels and NCCL collectives reach, for an engine of today's class.
// Absent from calibrated profiles (their rates and fits are measured).
struct GpuModel {
    double peak_flops = 0;     // the tensor-core (bf16) or fp32 peak at the run's precision
    double matmul_ceiling = 0; // share of the peak a GEMM reaches at its best shape (MAMF)
    double ceiling_k = 0;      // K of that best shape (its K-loop fill is the reference)
    int sms = 0;               // streaming multiprocessors: one output tile each per wave
    // SMs a collective in flight holds (besideCollective; 0 alone): a GEMM's split-K is
    // chosen for sms + held_sms, the whole GPU, as cuBLAS chooses it, and its waves run on
    // `sms`. Not in the profile's JSON (a profile is the GPU alone).
    int held_sms = 0;
    double memory_bytes_per_s = 0;
    double memory_fraction = 0; // of the HBM bandwidth an elementwise kernel reaches
    double flash_forward = 0, flash_backward = 0; // shares of the peak flash attention reaches
    double activation_bytes = 2;                  // an activation element: 2 bf16, 4 fp32
    double intra_bus_efficiency = 0; // NCCL's bus bandwidth over the link's rate in a host
    double inter_bus_efficiency = 0; // and over the node's NICs between hosts
    bool operator==(const GpuModel&) const = default;
};

struct MachineProfile {
    int version = kMachineProfileVersion;
    std::string source; // "calibrated" or "preset"
    std::string name;   // the host calibrated, or the preset's key
    std::string date;   // ISO 8601, when calibrated ("" for a preset)
    int cores = 1;
    int threads_per_rank = 1; // the kernels' threads the rates were measured with
    // Work per second of each kernel, one rank alone on the machine (kOpKindNames).
    std::array<double, kOpKindCount> rates{};
    std::vector<MatmulRate> matmuls; // the model's shapes; others fall back to rates[]
    // In-situ times of the model's pieces; where a config's shape and B, T are here, the
    // model prices its compute with them instead of summing kernel rates (optional).
    std::vector<ModelPieceTimes> pieces;
    std::optional<ReferencePass> reference_pass; // optional
    // Ranks beyond the cores: each rank's compute slows by ranks * threads / cores, times
    // this factor (1: sharing costs nothing beyond the share).
    double oversubscription_factor = 1;
    // Measured: each rank's compute slowdown with `ranks` ranks computing at once on the
    // machine (memory bandwidth and cores shared); read as rank_interpolation.h reads it.
    std::vector<std::pair<int, double>> compute_slowdown;
    // Measured (optional): over `ranks` ranks on `link`, the rate a collective in flight
    // progresses at while every rank computes, as a share of its rate alone (the progress
    // thread gets a core by turns when compute and progress threads outnumber the cores;
    // across a slow link the wire, not the thread, sets the pace). Where none fits, 1.
    struct CommBesideCompute {
        LinkClass link = LinkClass::IntraHost;
        int ranks = 2;
        double rate = 1;
        bool operator==(const CommBesideCompute&) const = default;
    };
    std::vector<CommBesideCompute> comm_beside_compute;
    // Measured (optional): over `ranks` ranks on `link`, the rate every rank's compute
    // progresses at while a collective is in flight, as a share of its rate with every rank
    // computing and none communicating (the progress thread takes a core by turns from the
    // compute threads). zerolab-calibrate's collectives child, beside comm_beside_compute.
    // Where none fits, 1: compute is not slowed (said in the forecast's assumptions).
    struct ComputeBesideComm {
        LinkClass link = LinkClass::IntraHost;
        int ranks = 2;
        double rate = 1;
        bool operator==(const ComputeBesideComm&) const = default;
    };
    std::vector<ComputeBesideComm> compute_beside_comm;
    // The inter-host fits were measured on emulated hosts (scripts/emulated-hosts): all
    // the ranks of every host share this machine's cores.
    bool hosts_share_cores = false;
    std::vector<CollectiveFit> fits;
    // Presets: links instead of measured fits; the peak the MFU divides by.
    std::optional<LinkSpec> intra_link, inter_link;
    double peak_flops = 0; // 0: the fastest matmul rate measured
    // GPU presets: matmuls by shape, flash attention, NCCL (gpu_physics.h) instead of
    // rates[] and the ring of the links alone.
    std::optional<GpuModel> gpu;
};

// The least-squares fit t = latency + bytes / bandwidth of (bytes, seconds) points, each
// point weighted by 1/t^2 (relative error); worst_residual the largest |fit - t| / t. At
// least two sizes. A latency the data puts below zero is 0 (bandwidth refitted); times
// that fall with size (no positive slope) get the largest size's rate and latency 0, and
// the residual that says so. The result keeps the points (sorted by bytes).
CollectiveFit fitLatencyBandwidth(const std::vector<std::pair<double, double>>& points);
// Seconds of `bytes` on the fit: off its points where it has two or more (at or below the
// smallest size, the smallest's time; between two sizes, the line through them; beyond
// the largest, the last segment's slope, or the fit's bandwidth where that is steeper),
// else latency_s + bytes / bytes_per_s.
double fitSeconds(const CollectiveFit& f, double bytes);

// Work per second of `kind` on the profile (the matmul shape's own rate when the profile
// has it). Throws PlanError when the profile holds no rate for the kind.
double opRate(const MachineProfile& p, OpKind kind, long long m = 0, long long k = 0,
              long long n = 0);
// Seconds of one collective of `bytes` (whole buffer) over `ranks` ranks on `link`: the fit
// at that rank count, between two calibrated counts theirs interpolated (rank_interpolation.h),
// or the preset link's ring. Throws PlanError naming what it lacks (outside its counts).
double collectiveSeconds(const MachineProfile& p, Collective c, LinkClass link, int ranks,
                         double bytes);

nlohmann::json toJson(const MachineProfile& p);
// Throws PlanError "FILE: $.fits[3].bytes_per_s: ..." for a missing, mistyped or
// out-of-range value, an unknown format or version, or a missing kernel rate.
MachineProfile machineProfileFromJson(const nlohmann::json& j, const std::string& file);
// Reads and checks a profile file (unreadable, not JSON: PlanError naming the file).
MachineProfile loadMachineProfile(const std::string& path);

} // namespace zerolab
