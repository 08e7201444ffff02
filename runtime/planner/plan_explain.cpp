// explain(): one stage's plan as formulas with the numbers plugged in, line by
// line. The CLI's --explain prints explain(); the GUI's Learn view shows the same lines
// (explainLines, Messages of context "PlanExplain") in its language.
#include "runtime/model/family.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_layout.h"
#include "runtime/planner/planner_offload.h"
#include "runtime/planner/planner_units.h"
#include "runtime/planner/zeropp_plan.h"

#include <cstdio>

#include <sstream>
#include <string>

namespace zerolab {

namespace {

// A number as an ostream writes it (6 significant digits): the text explain() always had.
std::string num(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

class Explainer {
public:
    Explainer(const Plan& p, int stage, ByteUnit unit)
        : m_plan(p), m_in(p.input), m_sp(p.stages[stage]), m_unit(unit) {}

    std::vector<Message> lines() {
        header();
        modelStates();
        activations();
        buffers();
        total();
        for (Message& m : offloadExplainLines(m_plan, m_sp, m_unit))
            line(std::move(m));
        communication();
        verdict();
        return std::move(m_lines);
    }

private:
    std::string bytes(double b) const { return formatBytes(b, m_unit); }
    std::string psi() const { return formatPsi(static_cast<double>(m_plan.psi_padded)); }
    std::string n() const { return std::to_string(m_in.world); }
    void line(Message m) { m_lines.push_back(std::move(m)); }
    void blank() { m_lines.emplace_back(std::string()); }

    void header() {
        Message convention;
        if (chapterUndefined(m_in, m_sp.stage))
            convention = Message(ZEROLAB_TR(
                "PlanExplain", "ZeRO paper convention (the chapter defines stages 0 and 1 "
                               "only; stages 2 and 3 are shown as ZeRO shards them)"));
        else if (m_in.convention == Convention::Chapter)
            convention = Message(ZEROLAB_TR("PlanExplain", "the chapter's layout"));
        else
            convention = Message(ZEROLAB_TR("PlanExplain", "ZeRO paper convention"));
        const Message precision =
            m_in.precision == Precision::Bf16Mixed && m_in.grad_accum_fp32
                ? Message(ZEROLAB_TR("PlanExplain", "bf16 with fp32 gradients (data_types."
                                                    "grad_accum_dtype)"))
                : Message(std::string(toString(m_in.precision)));
        if (m_in.precision == Precision::Bf16Mixed && !m_in.master_weights)
            line(Message(ZEROLAB_TR("PlanExplain", "ZeRO stage %1, %2, %3 without master weights"),
                         {std::to_string(m_sp.stage), convention, precision}));
        else
            line(Message(ZEROLAB_TR("PlanExplain", "ZeRO stage %1, %2, %3"),
                         {std::to_string(m_sp.stage), convention, precision}));
        const std::string count = formatPsi(static_cast<double>(m_plan.psi));
        if (m_plan.psi_padded != m_plan.psi)
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "psi = %1 parameters (%2 with each gather unit padded to a "
                                    "multiple of N), N = %3 ranks; %4"),
                         {count, psi(), n(), unitLegend(m_unit)}));
        else
            line(Message(ZEROLAB_TR("PlanExplain", "psi = %1 parameters, N = %2 ranks; %3"),
                         {count, n(), unitLegend(m_unit)}));
    }

    void stateLine(MemCategory c, int bytes_per_elem, bool sharded) {
        const std::string name(memCategoryName(c));
        if (bytes_per_elem == 0) {
            line(Message(ZEROLAB_TR("PlanExplain", "  %1: none (no fp32 master copy)"), {name}));
            return;
        }
        const std::string k = std::to_string(bytes_per_elem);
        // Offloaded states count here too: where they live is the offload section's.
        const std::string shown = bytes(static_cast<double>(m_sp.per_rank[c] + m_sp.offloaded[c]));
        const std::string dtype(dtypeName(bytes_per_elem));
        if (sharded)
            line(Message(
                ZEROLAB_TR("PlanExplain", "  %1 (%2): %3 x psi / N = %3 x %4 / %5 = %6  (sharded)"),
                {name, dtype, k, psi(), n(), shown}));
        else
            line(Message(
                ZEROLAB_TR("PlanExplain", "  %1 (%2): %3 x psi = %3 x %4 = %5  (replicated)"),
                {name, dtype, k, psi(), shown}));
    }

    void modelStates() {
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        const ShardedBy s = shardedBy(m_in.convention, m_sp.stage);
        blank();
        line(Message(
            ZEROLAB_TR("PlanExplain",
                       "Model states per rank (bytes per parameter x psi, / N where sharded):")));
        stateLine(MemCategory::Params, b.param, s.params);
        stateLine(MemCategory::MasterParams, b.master, s.master);
        stateLine(MemCategory::Grads, b.grad, s.grads);
        stateLine(MemCategory::OptimM, b.moment, s.optim);
        stateLine(MemCategory::OptimV, b.moment, s.optim);
        const StateCoefficients k = stateCoefficients(m_in, m_sp.stage);
        const double p = static_cast<double>(m_plan.psi_padded);
        line(Message(
            ZEROLAB_TR("PlanExplain", "  model states = %1 psi + %2 psi / N = %3 + %4 = %5"),
            {std::to_string(k.replicated), std::to_string(k.sharded), bytes(k.replicated * p),
             bytes(k.sharded * p / m_in.world),
             bytes(static_cast<double>(m_sp.model_states_bytes))}));
    }

    void activations() {
        blank();
        line(Message(ZEROLAB_TR("PlanExplain",
                                "Activations per rank (replicated: every rank runs its "
                                "own micro-batch):")));
        if (!m_sp.activations_known) {
            line(Message(ZEROLAB_TR(
                "PlanExplain", "  unknown: give a model shape and micro-batch (counted as 0)")));
            return;
        }
        if (m_in.activation_bytes && !m_in.activation_origin.text.empty()) {
            line(Message(
                ZEROLAB_TR("PlanExplain", "  from %1: %2"),
                {m_in.activation_origin, bytes(static_cast<double>(*m_in.activation_bytes))}));
            return;
        }
        if (m_in.activation_bytes) {
            line(Message(ZEROLAB_TR("PlanExplain", "  given directly: %1"),
                         {bytes(static_cast<double>(*m_in.activation_bytes))}));
            return;
        }
        // The family writes its arena's closed forms (family.h); the bytes are formatted here.
        const ModelShape& s = *m_in.shape;
        const int T = m_in.seq_len > 0 ? m_in.seq_len : s.seq_len;
        for (ActivationTerm& t :
             familyOf(s).activation_terms(s, m_in.micro_batch, T, m_in.recompute)) {
            if (t.bytes)
                t.text.args.emplace_back(bytes(*t.bytes));
            line(std::move(t.text));
        }
        std::string modes;
        for (std::size_t m = 0; m < kRecomputeNames.size(); ++m)
            modes += (m == 0 ? "" : ", ") + std::string(kRecomputeNames[m]) + " " +
                     bytes(static_cast<double>(m_sp.activation_bytes_by_mode[m]));
        line(Message(ZEROLAB_TR("PlanExplain", "  activations = %1  (%2)"),
                     {bytes(static_cast<double>(m_sp.activation_bytes)), modes}));
    }

    void buffers() {
        if (m_sp.engine_buffers) {
            engineBuffers();
            return;
        }
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        const std::string total = bytes(static_cast<double>(m_sp.comm_buffer_bytes));
        blank();
        if (m_sp.stage == 3)
            line(
                Message(ZEROLAB_TR("PlanExplain",
                                   "Comm buffers: a reduce bucket of min(reduce_bucket_size = %1, "
                                   "psi) elements x %2 bytes (%3) + a gather buffer of the largest "
                                   "gather unit x %4 bytes (%5) = %6"),
                        {std::to_string(m_in.reduce_bucket_elements), std::to_string(b.grad),
                         std::string(dtypeName(b.grad)), std::to_string(b.param),
                         std::string(dtypeName(b.param)), total}));
        else
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "Comm buffers: a reduce bucket of min(reduce_bucket_size = %1, "
                                    "psi) elements x %2 bytes (%3) = %4"),
                         {std::to_string(m_in.reduce_bucket_elements), std::to_string(b.grad),
                          std::string(dtypeName(b.grad)), total}));
        line(Message(ZEROLAB_TR("PlanExplain", "Workspace: %1"),
                     {bytes(static_cast<double>(m_sp.workspace_bytes))}));
    }

    // zerolab's own GPT-2: the buffers engine_buffers.h allocates, slot by slot.
    void engineBuffers() {
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        const std::string total = bytes(static_cast<double>(m_sp.comm_buffer_bytes));
        blank();
        if (m_sp.stage == 3)
            line(Message(
                ZEROLAB_TR("PlanExplain",
                           "Comm buffers (zerolab's engine, exact): all-gather slots for "
                           "the embedding and the largest block x %1 bytes (%2); fp32 "
                           "reduce-scatter slots for the embedding and %3; = %4"),
                {std::to_string(b.param), std::string(dtypeName(b.param)), blocks(), total}));
        else if (m_sp.stage == 2)
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "Comm buffers (zerolab's engine, exact): fp32 reduce-scatter "
                                    "slots for the embedding and %1; = %2"),
                         {blocks(), total}));
        else
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "Comm buffers (zerolab's engine, exact): none beyond the "
                                    "gradient buffer (all-reduce in place); = %1"),
                         {total}));
        line(Message(ZEROLAB_TR("PlanExplain",
                                "Workspace (zerolab's engine, exact): fp32 copies of the embedding "
                                "and one block where params are bf16, fp32 gradient staging where "
                                "grads are not fp32 and not a comm bucket = %1"),
                     {bytes(static_cast<double>(m_sp.workspace_bytes))}));
    }

    Message blocks() const {
        return m_in.overlap_comm ? Message(ZEROLAB_TR("PlanExplain", "two blocks (overlap_comm)"))
                                 : Message(ZEROLAB_TR("PlanExplain", "one block"));
    }

    void total() {
        blank();
        line(Message(ZEROLAB_TR("PlanExplain", "Total per rank = model states + activations + comm "
                                               "buffers + workspace = %1"),
                     {bytes(static_cast<double>(m_sp.total_bytes))}));
    }

    void communication() {
        static const MessageSource kPattern[] = {
            ZEROLAB_TR("PlanExplain", "all-reduce of the grads: 2 psi"),
            ZEROLAB_TR("PlanExplain",
                       "reduce-scatter of the grads (psi) + all-gather of the params (psi): 2 psi"),
            ZEROLAB_TR("PlanExplain",
                       "reduce-scatter of the grads each micro-step (A psi) + all-gather of the "
                       "params (psi): (A + 1) psi"),
            ZEROLAB_TR("PlanExplain",
                       "all-gather of the params for forward and for backward (2 psi) + "
                       "reduce-scatter of the grads (psi), each micro-step: 3 A psi"),
        };
        blank();
        line(Message(ZEROLAB_TR("PlanExplain", "Communication per optimizer step (A = %1 "
                                               "micro-steps): %2 = %3 elements = %4"),
                     {std::to_string(m_in.grad_accumulation), Message(kPattern[m_sp.stage]),
                      formatPsi(m_sp.comm_elements), bytes(m_sp.comm_bytes)}));
        std::string ratio;
        if (m_plan.psi > 0) {
            char v[32];
            std::snprintf(v, sizeof v, "%.3f", m_sp.traffic_elements / double(m_plan.psi));
            ratio = std::string(" = ") + v + " psi";
        }
        const Message engine_note =
            m_sp.stage == 3 && m_sp.engine_buffers
                ? Message(
                      ZEROLAB_TR("PlanExplain",
                                 " (zerolab's engine gathers less than 2A psi: its slots keep the "
                                 "tied embedding for the whole step and the units at the "
                                 "forward/backward turn)"))
                : Message();
        line(Message(
            ZEROLAB_TR("PlanExplain", "  traffic per rank (ring: each psi above x (N - 1) "
                                      "/ N) = %1 = %2 elements%3%4"),
            {bytes(m_sp.traffic.total()), formatPsi(m_sp.traffic_elements), ratio, engine_note}));
        line(Message(
            ZEROLAB_TR("PlanExplain", "  time = traffic / bandwidth = %1 / %2 GB/s = %3 s"),
            {bytes(m_sp.traffic.total()), num(m_in.bandwidth_gbps), num(m_sp.comm_seconds)}));
        linkClasses();
    }

    // Traffic by link class, and at stage 3 with ZeRO++ the paper's 3M -> 0.75M beside what
    // this engine sends (zeropp_plan.h).
    void linkClasses() {
        const ZeroPPOptions o = zeroppOptions(m_in, m_sp.stage);
        line(Message(ZEROLAB_TR("PlanExplain", "  by link, hosts of %1 consecutive ranks: within "
                                               "a host %2, across hosts %3"),
                     {std::to_string(o.ranks_per_host), bytes(m_sp.traffic.link.within),
                      bytes(m_sp.traffic.link.across)}));
        if (m_sp.stage != 3 || !o.any())
            return;
        PlanInput plain = m_in;
        plain.quantized_weights = plain.quantized_gradients = false;
        plain.hpz_partition_size = 1;
        const StagePlan base = plan(plain).stages[3];
        const double M = 2.0 * static_cast<double>(m_plan.psi); // the model at 16 bits
        blank();
        line(Message(ZEROLAB_TR("PlanExplain",
                                "ZeRO++ (Wang et al. 2023), cross-node bytes per micro-step, M = "
                                "2 psi = %1: stage 3 sends 3M (forward all-gather M, backward "
                                "all-gather M, reduce-scatter M); qwZ's int8 halves forward's "
                                "(0.5M), hpZ keeps backward's on the host (0), qgZ's int4 "
                                "quarters the gradients' (0.25M): 0.75M = %2"),
                     {bytes(M), bytes(0.75 * M)}));
        line(Message(ZEROLAB_TR("PlanExplain", "  on:%1%2%3 (hpZ groups of %4, int8 blocks of "
                                               "DeepSpeed's group rule, int4 blocks of %5)"),
                     {std::string(o.qwz ? " qwZ" : ""), std::string(o.hpz > 1 ? " hpZ" : ""),
                      std::string(o.qgz ? " qgZ" : ""), std::to_string(o.hpz),
                      std::to_string(o.n_embd)}));
        std::string ratio = "-";
        if (base.traffic.link.across > 0) {
            char v[32];
            std::snprintf(v, sizeof v, "%.3f", m_sp.traffic.link.across / base.traffic.link.across);
            ratio = v;
        }
        line(Message(ZEROLAB_TR("PlanExplain",
                                "  this engine, per optimizer step: across hosts %1 against plain "
                                "stage 3's %2 (%3x), within hosts %4 against %5; scales and the "
                                "reduce-scattered fallback units included"),
                     {bytes(m_sp.traffic.link.across), bytes(base.traffic.link.across), ratio,
                      bytes(m_sp.traffic.link.within), bytes(base.traffic.link.within)}));
    }

    void verdict() {
        const std::string capacity = bytes(static_cast<double>(m_in.device.capacity_bytes));
        const std::string reserve = bytes(static_cast<double>(m_in.device.reserve_bytes));
        const std::string usable = bytes(static_cast<double>(m_in.device.usableBytes()));
        const std::string margin =
            bytes(static_cast<double>(m_sp.fits ? m_sp.margin_bytes : -m_sp.margin_bytes));
        blank();
        if (m_sp.fits)
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "Device %1: %2 - %3 reserved (CUDA context, cuBLAS, NCCL, "
                                    "fragmentation) = %4 usable; fits with %5 to spare"),
                         {m_in.device.label, capacity, reserve, usable, margin}));
        else
            line(Message(ZEROLAB_TR("PlanExplain",
                                    "Device %1: %2 - %3 reserved (CUDA context, cuBLAS, NCCL, "
                                    "fragmentation) = %4 usable; short by %5"),
                         {m_in.device.label, capacity, reserve, usable, margin}));
    }

    const Plan& m_plan;
    const PlanInput& m_in;
    const StagePlan& m_sp;
    ByteUnit m_unit;
    std::vector<Message> m_lines;
};

} // namespace

std::vector<Message> explainLines(const PlanInput& in, int stage, ByteUnit unit) {
    PlanInput at = in;
    at.stage = stage;
    const Plan p = plan(at);
    return Explainer(p, stage, unit).lines();
}

std::string explain(const PlanInput& in, int stage, ByteUnit unit) {
    std::string out;
    for (const Message& m : explainLines(in, stage, unit))
        out += renderEnglish(m) + "\n";
    return out;
}

} // namespace zerolab
