// The analytic planner: per-rank memory (by ledger category) and communication
// per step for ZeRO stages 0-3, a verdict against a device, the chapter's errata,
// and the --explain text. Pure arithmetic: no MPI, no Qt (the GUI links it).
#pragma once

#include "runtime/config/config.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"
#include "runtime/text/message.h"
#include "storage/comm_traffic.h"
#include "storage/mem_category.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// The one exception type of the planner: invalid input (negative sizes, world < 1,
// a stage outside 0-3, an unknown device...). what() names the offending field.
class PlanError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// ZeroPaper: the ZeRO paper / DeepSpeed layout (grads at the param dtype, the fp32
// master sharded with m and v). Chapter: the reference chapter's layout (fp32 grads,
// fp32 master replicated at every stage, only m and v follow the stage's sharding);
// the chapter only covers stage 1, its stages 2 and 3 extend the same rule.
enum class Convention { ZeroPaper, Chapter };

// Byte unit of the human-readable output. GB = 1e9 bytes (the ZeRO paper's unit).
enum class ByteUnit { GB, GiB };

// A device's memory. Presets live in plan_devices.h; custom devices carry key "custom".
// (Named DeviceCapacity: config.h's Device is the cpu/cuda choice, kernels.h's DeviceMemory
// the bytes a device has in use.)
// What a rank may fill is capacity - reserve: the reserve stands for what is not the
// ledger's (CUDA context, cuBLAS workspace, NCCL buffers, allocator fragmentation).
struct DeviceCapacity {
    std::string key;   // "a100-40", "a100-80", "h100-80", "h200-141", "host", "custom"
    std::string label; // "A100 80 GB"
    long long capacity_bytes = 0;
    long long reserve_bytes = 0;
    long long usableBytes() const { return capacity_bytes - reserve_bytes; }
};

// Defaults follow DeepSpeed (bucket sizes of 5e8 elements).
inline constexpr long long kDefaultBucketElements = 500'000'000;

struct PlanInput {
    // psi, the parameter count. 0 means paramCount(*shape); when both are given,
    // params wins for the model states and the shape still sizes activations/buffers.
    // Rounded to the nearest integer.
    double params = 0;
    int world = 1; // N, data-parallel ranks
    int stage = 0; // the stage the verdict and explain() default to; all four are planned
    // config.h's Precision. Fp32: params, grads, m, v in fp32, no master (K = 8).
    // Bf16Mixed: bf16 params and grads, fp32 master + m + v (K = 12).
    Precision precision = Precision::Bf16Mixed;
    bool master_weights = true; // Bf16Mixed only: keep the fp32 master copy (llm.c's -w 1)
    // Bf16Mixed only: fp32 gradients (DeepSpeed's data_types.grad_accum_dtype "fp32"):
    // grads take 4 bytes, are reduced in fp32, and ZeRO shards them as usual (stage 0:
    // 18 psi, stage 1: 6 psi + 12 psi / N). The engine runs it.
    bool grad_accum_fp32 = false;
    Convention convention = Convention::ZeroPaper;

    // Optional GPT-2 shape: activations, gather units, padding. seq_len is T, the
    // sequence length of a micro-batch (T <= the shape's context).
    std::optional<ModelShape> shape;
    int micro_batch = 0; // B; needed (>= 1) for activations when shape is set
    int seq_len = 0;     // T; 0 = shape->seq_len
    // Activation recomputation (recompute.h): which activations the arena keeps.
    Recompute recompute = Recompute::None;
    // Activation bytes given directly (e.g. the chapter's "about 10 GB"); overrides
    // the shape-based count for every recompute mode.
    std::optional<long long> activation_bytes;
    // Where activation_bytes comes from when it was not typed in (Learn's Korthikanti et
    // al. formula): the explanation names it instead of "given directly". Empty: given.
    Message activation_origin;

    // Bucket sizes size the comm buffers of models other than zerolab's own GPT-2
    // (whose buffers come from engine_buffers.h, where overlap_comm adds a slot).
    long long reduce_bucket_elements = kDefaultBucketElements;
    long long allgather_bucket_elements = kDefaultBucketElements;
    bool overlap_comm = false;
    bool reduce_scatter = true;       // stage 1: reduce-scatter the grads (else all-reduce)
    bool allgather_partitions = true; // stages 1-2: all-gather the params (else broadcasts)
    int grad_accumulation = 1;
    // ZeRO++ (stage 3 only; zeropp_plan.h): int8 parameter all-gathers, hpZ's secondary
    // shard over groups of hpz_partition_size ranks, qgZ's int4 gradient all-to-alls.
    bool quantized_weights = false;
    int hpz_partition_size = 1;
    bool quantized_gradients = false;
    // Ranks per host for traffic by link class (config run.ranks_per_host; 0: hpz's
    // group when above 1, else one host for the whole world; zeropp_plan.h linkHostSize).
    int ranks_per_host = 0;
    double bandwidth_gbps = 100.0; // bus bandwidth in GB/s (1e9 bytes/s) for comm time
    // ZeRO-Offload (zero_optimization.offload_optimizer / offload_param, planner_offload.cpp):
    // the optimizer (stages 1-3) moves the fp32 master, m and v, and from stage 2 the
    // gradient shard, to host memory (or NVMe); the parameter offload (stage 3) moves the
    // parameter shard. Stages where it does not apply plan no offload.
    OffloadDevice offload_optimizer = OffloadDevice::None;
    OffloadDevice offload_param = OffloadDevice::None;
    int ranks_per_node = 0;  // for the per-node host bytes; 0: all N ranks on one node
    double pcie_gbps = 25.0; // host <-> device bandwidth in GB/s for the offload's PCIe time

    // The A100 80 GB preset (plan_devices.h), its reserve included.
    DeviceCapacity device{"a100-80", "A100 80 GB", 81920LL * 1024 * 1024,
                          (1024LL + 4096) * 1024 * 1024};
};

// One chapter slip: what it claims next to the correct value, at this input's psi, N.
// topic is its id (lessons name it); the three texts are Messages of context
// "PlanErrata" for a reader that translates them, the strings their English renderings
// (planner_errata.cpp makes both from one Message).
struct Erratum {
    std::string topic;   // "stage-1 total", "saving limit", ...
    std::string claimed; // the chapter's formula or statement, numbers plugged in
    std::string correct; // the right one
    double claimed_value = 0;
    double correct_value = 0;
    std::string unit; // "bytes" or "fraction"
    Message topic_text;
    Message claimed_text;
    Message correct_text;
};

struct StagePlan {
    int stage = 0;
    MemBreakdown per_rank;            // bytes per ledger category on each rank
    long long model_states_bytes = 0; // params + master_params + grads + optim_m + optim_v
    long long activation_bytes = 0;   // at the input's recompute mode (= per_rank's)
    // Activation bytes at each recompute mode (recompute.h order), for comparison.
    std::array<long long, 3> activation_bytes_by_mode{};
    bool activations_known = false; // false: no shape and no activation_bytes (counted as 0)
    long long comm_buffer_bytes = 0;
    long long workspace_bytes = 0;
    bool engine_buffers = false; // comm buffers and workspace are the engine's exact ones
    long long total_bytes = 0;   // per_rank.total()
    // Communication per optimizer step (with grad_accumulation micro-steps):
    double comm_elements = 0; // 2 psi for stages 0-2, 3 psi for stage 3 (accumulation 1)
    double comm_bytes = 0;    // at the gradient / param dtype of each collective
    double comm_seconds = 0;  // traffic at bandwidth_gbps
    // Traffic per rank per optimizer step (storage/comm_traffic.h), per collective kind,
    // in bytes; and in elements (2(N-1)/N psi for stages 0-2, 3(N-1)/N psi for stage 3,
    // 0 at N = 1). At stage 3 on zerolab's own GPT-2 the engine's gather slots re-use
    // units, so it is below 3 psi (engine_buffers.h, stage3GatherElements).
    // traffic.link splits the same bytes into within a host and across hosts.
    CommTraffic traffic;
    double traffic_elements = 0;
    bool fits = false;
    long long margin_bytes = 0; // usable (capacity - reserve) - total_bytes; negative when short
    // ZeRO-Offload: bytes per category per rank moved off the device. per_rank and
    // total_bytes are what stays on the device; host_bytes (CPU memory) plus nvme_bytes is
    // offloaded.total(). Per node: times the ranks on a node.
    MemBreakdown offloaded;
    long long host_bytes = 0;
    long long nvme_bytes = 0;
    long long host_bytes_per_node = 0;
    long long nvme_bytes_per_node = 0;
    int ranks_per_node = 1;
    double pcie_bytes = 0;   // per rank per optimizer step, device <-> host
    double pcie_seconds = 0; // pcie_bytes at PlanInput::pcie_gbps
    // What the ledger holds: offload is forecast, not run, so every category stays in the
    // rank's memory (per_rank + offloaded).
    MemBreakdown ledger() const {
        MemBreakdown m = per_rank;
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            m.bytes[c] += offloaded.bytes[c];
        return m;
    }
};

struct Verdict {
    int stage = 0; // = PlanInput::stage
    long long capacity_bytes = 0;
    long long reserve_bytes = 0;
    long long usable_bytes = 0; // capacity - reserve: what the verdict compares with
    bool fits = false;
    long long margin_bytes = 0;
    std::optional<int> lowest_stage;                    // lowest stage that fits at this N
    std::array<std::optional<int>, 4> smallest_world{}; // per stage; empty: no N <= kMaxWorld
};

inline constexpr int kMaxWorld = 1 << 20;

struct Plan {
    PlanInput input;
    std::int64_t psi = 0;        // parameters
    std::int64_t psi_padded = 0; // flat buffer length at this N (gather units padded to N)
    std::array<StagePlan, 4> stages;
    Verdict verdict;
    std::vector<Erratum> errata; // Chapter convention only
};

// Throws PlanError on invalid input.
Plan plan(const PlanInput& in);

// The plan of a resolved training config: its model shape (psi from it), micro-batch,
// T, world, stage, precision, bucket sizes, accumulation and overlap_comm. Fields the
// config does not hold (device, bandwidth, convention) keep defaults.
PlanInput planInputFromConfig(const TrainConfig& config);
// The one prediction of a run's memory: the plan of planInputFromConfig(config) at the
// config's own stage. The GUI's forecast and outlines, zerolab-plan --config, the stored
// per-segment prediction and the ledger tests all come from here; it equals the
// ledger in every category. Throws PlanError.
StagePlan predictRun(const TrainConfig& config);

// The pieces plan() adds up; each is what the runtime allocates.
// Activation bytes of the GPT-2 arena at B, T for each recompute mode (indexed by
// Recompute), exactly what the model allocates (activation_layout.h).
using ActivationBytes = std::array<long long, 3>;
ActivationBytes activationBytes(const ModelShape& shape, int micro_batch, int seq_len);
// Comm buffers and workspace. For zerolab's own GPT-2 (a shape whose paramCount is
// psi, ZeroPaper convention) exactly what the engine allocates (engine_buffers.h).
// Otherwise DeepSpeed's buckets: a reduce bucket of min(reduce_bucket, psi_padded)
// elements at the gradient dtype, plus for stage 3 a gather buffer of the largest
// padded gather unit (or min(allgather_bucket, psi) without a shape) at the param
// dtype; workspace 0.
long long commBufferBytes(const PlanInput& in, int stage, std::int64_t psi);
long long workspaceBytes(const PlanInput& in, int stage, std::int64_t psi);
// Flat buffer length with each gather unit padded to a multiple of world; without a
// shape the whole buffer is one unit.
std::int64_t psiPadded(const PlanInput& in, std::int64_t psi, int world);

// The formula with the numbers plugged in, line by line: each line a Message of
// context "PlanExplain" (the GUI's Learn view shows them in its language; a blank line
// is an empty literal). explain() is their English rendering, one per line, what
// zerolab-plan --explain prints.
std::vector<Message> explainLines(const PlanInput& in, int stage, ByteUnit unit = ByteUnit::GB);
std::string explain(const PlanInput& in, int stage, ByteUnit unit = ByteUnit::GB);
// {"input": {...}, "psi", "psi_padded", "stages": [{"stage", "per_rank": {category: bytes},
//  "model_states_bytes", ...}], "verdict": {...}, "errata": [...]}
nlohmann::json toJson(const Plan& p);
// Stages 0-3 side by side, the unit named in the header, then the verdict and errata.
std::string formatTable(const Plan& p, ByteUnit unit = ByteUnit::GB);

// "paper", "chapter" (the CLI's --convention values); precision names are config.h's toString.
std::string_view conventionName(Convention c);

} // namespace zerolab
