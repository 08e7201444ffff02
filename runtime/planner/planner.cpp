// The planner's model: validates a PlanInput, adds up per-rank bytes per ledger
// category for stages 0-3, the communication per step, and the verdict against
// the device (lowest stage that fits, smallest N per stage).
#include "runtime/planner/planner.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/planner_errata.h"
#include "runtime/planner/planner_layout.h"
#include "runtime/planner/planner_offload.h"
#include "runtime/planner/zeropp_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace zerolab {

namespace {

// "1e+30": a number in a message, whatever its size.
std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void require(bool ok, const std::string& message) {
    if (!ok)
        throw PlanError("plan: " + message);
}

void validate(const PlanInput& in) {
    require(std::isfinite(in.params) && in.params >= 0,
            "params must be a finite count >= 0, got " + std::to_string(in.params));
    require(in.params <= static_cast<double>(kMaxParamCount),
            "params: at most 2^48 = " + std::to_string(kMaxParamCount) +
                " (more than any machine holds, the bound of a model shape), got " +
                shortNumber(in.params));
    require(in.params >= 0.5 || in.shape.has_value(),
            "params: need a parameter count >= 1 or a model shape");
    require(in.world >= 1 && in.world <= kMaxWorld, "world must be in 1.." +
                                                        std::to_string(kMaxWorld) + ", got " +
                                                        std::to_string(in.world));
    require(in.stage >= 0 && in.stage <= 3,
            "stage must be 0, 1, 2 or 3, got " + std::to_string(in.stage));
    if (in.shape) {
        const ModelShape& s = *in.shape;
        require(s.n_layer >= 1 && s.n_head >= 1 && s.n_embd >= 1 && s.seq_len >= 1 &&
                    s.vocab_size >= 1 && s.padded_vocab_size >= s.vocab_size,
                "shape: layers, heads, hidden, seq and vocab must be >= 1 (padded vocab >= vocab)");
        // A head's width is head_dim where the shape gives one (a Llama shape may have
        // heads x head_dim != hidden), else hidden / heads, which must then be whole.
        require(s.head_dim > 0 || s.n_embd % s.n_head == 0,
                "shape: hidden (" + std::to_string(s.n_embd) + ") must be a multiple of heads (" +
                    std::to_string(s.n_head) + ") or head_dim given");
        require(checkedParamCount(s).has_value(),
                "shape: layers, hidden, seq and vocab make more than 2^48 parameters");
    }
    require(in.micro_batch >= 0, "micro_batch must be >= 0, got " + std::to_string(in.micro_batch));
    require(in.seq_len >= 0, "seq_len must be >= 0, got " + std::to_string(in.seq_len));
    if (in.shape)
        require(in.seq_len <= in.shape->seq_len, "seq_len (" + std::to_string(in.seq_len) +
                                                     ") exceeds the shape's context (" +
                                                     std::to_string(in.shape->seq_len) + ")");
    require(!in.activation_bytes || *in.activation_bytes >= 0, "activation_bytes must be >= 0");
    require(in.reduce_bucket_elements >= 1, "reduce_bucket_elements must be >= 1, got " +
                                                std::to_string(in.reduce_bucket_elements));
    require(in.allgather_bucket_elements >= 1, "allgather_bucket_elements must be >= 1, got " +
                                                   std::to_string(in.allgather_bucket_elements));
    require(in.grad_accumulation >= 1,
            "grad_accumulation must be >= 1, got " + std::to_string(in.grad_accumulation));
    require(std::isfinite(in.bandwidth_gbps) && in.bandwidth_gbps > 0,
            "bandwidth_gbps must be > 0, got " + std::to_string(in.bandwidth_gbps));
    require(std::isfinite(in.pcie_gbps) && in.pcie_gbps > 0,
            "pcie_gbps must be > 0, got " + std::to_string(in.pcie_gbps));
    require(in.ranks_per_node >= 0 && in.ranks_per_node <= kMaxWorld,
            "ranks_per_node must be in 0.." + std::to_string(kMaxWorld) + ", got " +
                std::to_string(in.ranks_per_node));
    require(in.device.capacity_bytes >= 1, "device '" + in.device.key +
                                               "' capacity must be >= 1 byte, got " +
                                               std::to_string(in.device.capacity_bytes));
    require(in.device.reserve_bytes >= 0 && in.device.reserve_bytes < in.device.capacity_bytes,
            "device '" + in.device.key + "' reserve must be >= 0 and below its capacity (" +
                std::to_string(in.device.capacity_bytes) + " bytes), got " +
                std::to_string(in.device.reserve_bytes));
}

// What does not depend on the stage or N.
struct Fixed {
    std::int64_t psi = 0;
    ActivationBytes activations{};
    bool activations_known = false;
};

Fixed resolveFixed(const PlanInput& in) {
    Fixed f;
    f.psi = in.params >= 0.5 ? std::llround(in.params) : paramCount(*in.shape);
    if (in.activation_bytes) {
        f.activations.fill(*in.activation_bytes);
        f.activations_known = true;
    } else if (in.shape && in.micro_batch >= 1) {
        f.activations = activationBytes(*in.shape, in.micro_batch,
                                        in.seq_len > 0 ? in.seq_len : in.shape->seq_len);
        f.activations_known = true;
    }
    return f;
}

// Communication of one optimizer step. Stage 0 all-reduces the grads once (2 psi);
// stages 1 and 2 reduce-scatter grads and all-gather params (psi + psi), stage 2
// reduce-scattering every micro-step; stage 3 all-gathers params for forward and
// backward and reduce-scatters grads every micro-step (3 psi).
// Traffic per rank (storage/comm_traffic.h) follows the engine's collectives on the
// padded flat buffer: stage 1 all-reduces instead of reduce-scattering without
// reduce_scatter, and broadcasts instead of all-gathering without allgather_partitions.
// At stage 3, for zerolab's own GPT-2, the engine's gather slots keep the tied
// embedding and the units at the forward/backward turn, so fewer than 2A psi are
// gathered (stage3GatherElements); for other models 2A psi, the ZeRO paper's count.
void addComm(const PlanInput& in, const StateBytes& b, std::int64_t psi_padded, StagePlan& sp) {
    const double psi = static_cast<double>(psi_padded);
    const double A = in.grad_accumulation;
    double grad_elems = 0, param_elems = 0;
    Collective gradKind = Collective::ReduceScatter;
    const Collective paramKind =
        in.allgather_partitions ? Collective::AllGather : Collective::Broadcast;
    switch (sp.stage) {
    case 0:
        grad_elems = psi;
        gradKind = Collective::AllReduce;
        break;
    case 1:
        grad_elems = psi;
        param_elems = psi;
        if (!in.reduce_scatter)
            gradKind = Collective::AllReduce;
        break;
    case 2:
        grad_elems = A * psi;
        param_elems = psi;
        break;
    default:
        grad_elems = A * psi;
        param_elems = 2 * A * psi;
        break;
    }
    // zerolab's own engine at stage 3: its gather slots re-use units (engine_buffers.h),
    // and ZeRO++ changes what each collective sends and where (zeropp_plan.h).
    std::optional<CommTraffic> engineStage3;
    const ZeroPPOptions zpp = zeroppOptions(in, sp.stage);
    if (sp.stage == 3 && sp.engine_buffers) {
        const ParamLayout layout = makeParamLayout(*in.shape, in.world);
        const EngineBufferPlan buffers = planEngineBuffers(layout, in.world, 3, in.precision,
                                                           in.overlap_comm, in.grad_accum_fp32);
        param_elems = static_cast<double>(
            stage3GatherElements(layout, buffers.gather_block_slots, in.grad_accumulation));
        engineStage3 = stage3StepTraffic(layout, buffers, zpp, in.grad_accumulation);
    }
    // Elements in the ZeRO paper's count: an all-reduce moves its buffer twice.
    const double gradFactor = gradKind == Collective::AllReduce ? 2 : 1;
    sp.comm_elements = gradFactor * grad_elems + param_elems;
    sp.comm_bytes = gradFactor * grad_elems * b.grad + param_elems * b.param;
    sp.traffic[gradKind] = grad_elems * b.grad * ringTrafficFactor(gradKind, in.world);
    sp.traffic[paramKind] = param_elems * b.param * ringTrafficFactor(paramKind, in.world);
    sp.traffic_elements = grad_elems * ringTrafficFactor(gradKind, in.world) +
                          param_elems * ringTrafficFactor(paramKind, in.world);
    // Every collective of stages 0-2 (and of plain stage 3 elsewhere) spans the world.
    sp.traffic.link = worldRingLinkTraffic(sp.traffic.total(), in.world, zpp.ranks_per_host);
    if (engineStage3)
        sp.traffic = *engineStage3;
    sp.comm_seconds = sp.traffic.total() / (in.bandwidth_gbps * 1e9);
}

StagePlan planStage(const PlanInput& in, const Fixed& f, int stage, int world) {
    PlanInput at = in;
    at.world = world;
    const std::int64_t padded = psiPadded(at, f.psi, world);
    const StateBytes b = stateBytes(at, stage);
    const ShardedBy sh = shardedBy(at.convention, stage);

    StagePlan sp;
    sp.stage = stage;
    auto states = [&](MemCategory c, int bytes_per_elem, bool sharded) {
        sp.per_rank[c] = bytes_per_elem * (sharded ? padded / world : padded);
    };
    states(MemCategory::Params, b.param, sh.params);
    states(MemCategory::MasterParams, b.master, sh.master);
    states(MemCategory::Grads, b.grad, sh.grads);
    states(MemCategory::OptimM, b.moment, sh.optim);
    states(MemCategory::OptimV, b.moment, sh.optim);
    // hpZ's secondary shard is part of params (engine_buffers.h).
    if (stage == 3 && isEngineModel(at, f.psi))
        sp.per_rank[MemCategory::Params] += engineBufferPlan(at, stage).secondary_params * b.param;
    sp.model_states_bytes = sp.per_rank.total();
    applyOffload(at, b, padded, sp);

    sp.activation_bytes = f.activations[static_cast<std::size_t>(in.recompute)];
    sp.activation_bytes_by_mode = f.activations;
    sp.activations_known = f.activations_known;
    sp.per_rank[MemCategory::Activations] = sp.activation_bytes;
    sp.comm_buffer_bytes = commBufferBytes(at, stage, f.psi);
    sp.per_rank[MemCategory::CommBuffers] = sp.comm_buffer_bytes;
    sp.workspace_bytes = workspaceBytes(at, stage, f.psi);
    sp.engine_buffers = isEngineModel(at, f.psi);
    sp.per_rank[MemCategory::Workspace] = sp.workspace_bytes;
    sp.total_bytes = sp.per_rank.total();

    addComm(at, b, padded, sp);
    sp.margin_bytes = in.device.usableBytes() - sp.total_bytes;
    sp.fits = sp.margin_bytes >= 0;
    return sp;
}

// Smallest N in 1..kMaxWorld at which the stage fits. Per-rank bytes shrink with N
// except for padding (at most one element per gather unit per rank), so fits(N) is
// treated as monotone and bisected.
std::optional<int> smallestWorld(const PlanInput& in, const Fixed& f, int stage) {
    auto fits = [&](int n) { return planStage(in, f, stage, n).fits; };
    if (fits(1))
        return 1;
    if (!fits(kMaxWorld))
        return std::nullopt;
    int lo = 1, hi = kMaxWorld; // fits(lo) false, fits(hi) true
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace

Plan plan(const PlanInput& in) {
    validate(in);
    const Fixed f = resolveFixed(in);

    Plan p;
    p.input = in;
    p.psi = f.psi;
    p.psi_padded = psiPadded(in, f.psi, in.world);
    for (int s = 0; s < 4; ++s)
        p.stages[s] = planStage(in, f, s, in.world);

    Verdict& v = p.verdict;
    v.stage = in.stage;
    v.capacity_bytes = in.device.capacity_bytes;
    v.reserve_bytes = in.device.reserve_bytes;
    v.usable_bytes = in.device.usableBytes();
    v.fits = p.stages[in.stage].fits;
    v.margin_bytes = p.stages[in.stage].margin_bytes;
    for (int s = 0; s < 4 && !v.lowest_stage; ++s)
        if (p.stages[s].fits)
            v.lowest_stage = s;
    for (int s = 0; s < 4; ++s)
        v.smallest_world[s] = smallestWorld(in, f, s);

    if (in.convention == Convention::Chapter)
        p.errata = chapterErrata(in, f.psi);
    return p;
}

std::string_view conventionName(Convention c) {
    return c == Convention::Chapter ? "chapter" : "paper";
}

} // namespace zerolab
