// explain(): one stage's plan as formulas with the numbers plugged in, line by
// line. The CLI's --explain and the GUI's Learn view print exactly this text.
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_layout.h"
#include "runtime/planner/planner_units.h"

#include <cstdio>

#include <sstream>
#include <string>

namespace zerolab {

namespace {

class Explainer {
public:
    Explainer(const Plan& p, int stage, ByteUnit unit)
        : m_plan(p), m_in(p.input), m_sp(p.stages[stage]), m_unit(unit) {}

    std::string text() {
        header();
        modelStates();
        activations();
        buffers();
        total();
        communication();
        verdict();
        return m_out.str();
    }

private:
    std::string bytes(double b) const { return formatBytes(b, m_unit); }
    std::string psi() const { return formatPsi(static_cast<double>(m_plan.psi_padded)); }
    int n() const { return m_in.world; }

    void header() {
        m_out << "ZeRO stage " << m_sp.stage << ", "
              << (chapterUndefined(m_in, m_sp.stage)
                      ? "ZeRO paper convention (the chapter defines stages 0 and 1 only; "
                        "stages 2 and 3 are shown as ZeRO shards them)"
                  : m_in.convention == Convention::Chapter ? "the chapter's layout"
                                                           : "ZeRO paper convention")
              << ", " << toString(m_in.precision)
              << (m_in.precision == Precision::Bf16Mixed && !m_in.master_weights
                      ? " without master weights"
                      : "")
              << "\n";
        m_out << "psi = " << formatPsi(static_cast<double>(m_plan.psi)) << " parameters";
        if (m_plan.psi_padded != m_plan.psi)
            m_out << " (" << psi() << " with each gather unit padded to a multiple of N)";
        m_out << ", N = " << n() << " ranks; " << unitLegend(m_unit) << "\n";
    }

    void stateLine(MemCategory c, int bytes_per_elem, bool sharded) {
        if (bytes_per_elem == 0) {
            m_out << "  " << memCategoryName(c) << ": none (no fp32 master copy)\n";
            return;
        }
        m_out << "  " << memCategoryName(c) << " (" << dtypeName(bytes_per_elem)
              << "): " << bytes_per_elem << " x psi" << (sharded ? " / N" : "") << " = "
              << bytes_per_elem << " x " << psi();
        if (sharded)
            m_out << " / " << n();
        m_out << " = " << bytes(static_cast<double>(m_sp.per_rank[c]))
              << (sharded ? "  (sharded)" : "  (replicated)") << "\n";
    }

    void modelStates() {
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        const ShardedBy s = shardedBy(m_in.convention, m_sp.stage);
        m_out << "\nModel states per rank (bytes per parameter x psi, / N where sharded):\n";
        stateLine(MemCategory::Params, b.param, s.params);
        stateLine(MemCategory::MasterParams, b.master, s.master);
        stateLine(MemCategory::Grads, b.grad, s.grads);
        stateLine(MemCategory::OptimM, b.moment, s.optim);
        stateLine(MemCategory::OptimV, b.moment, s.optim);
        const StateCoefficients k = stateCoefficients(m_in, m_sp.stage);
        const double p = static_cast<double>(m_plan.psi_padded);
        m_out << "  model states = " << k.replicated << " psi + " << k.sharded
              << " psi / N = " << bytes(k.replicated * p) << " + " << bytes(k.sharded * p / n())
              << " = " << bytes(static_cast<double>(m_sp.model_states_bytes)) << "\n";
    }

    void activations() {
        m_out << "\nActivations per rank (replicated: every rank runs its own micro-batch):\n";
        if (!m_sp.activations_known) {
            m_out << "  unknown: give a model shape and micro-batch (counted as 0)\n";
            return;
        }
        if (m_in.activation_bytes) {
            m_out << "  given directly: " << bytes(static_cast<double>(*m_in.activation_bytes))
                  << "\n";
            return;
        }
        const ModelShape& s = *m_in.shape;
        const long long B = m_in.micro_batch, T = m_in.seq_len > 0 ? m_in.seq_len : s.seq_len;
        const long long C = s.n_embd, a = s.n_head, L = s.n_layer;
        const double sbh = static_cast<double>(B * T * C),
                     as2b = static_cast<double>(a * T * T * B), sb = static_cast<double>(B * T);
        m_out << "  GPT-2 activation arena, fp32 (4 bytes), s = T = " << T << ", b = B = " << B
              << ", h = C = " << C << ", a = heads = " << a << ", L = " << L
              << ", Vp = " << s.padded_vocab_size << "; recompute " << recomputeName(m_in.recompute)
              << "\n";
        // Bytes kept per layer and once, by mode (activation_layout.h); the padding of
        // buffers to 64 bytes is in the total, not in these terms.
        switch (m_in.recompute) {
        case Recompute::None:
            m_out
                << "  per layer: 64sbh + 4as^2b + 16sb (ln1, qkv, atty, residual2, ln2, fch, "
                   "gelu, residual3; attention probabilities; layernorm statistics) = "
                << bytes(64 * sbh + 4 * as2b + 16 * sb) << "\n"
                << "  (Korthikanti et al. 2022 count 34sbh + 5as^2b in fp16 with dropout masks)\n";
            break;
        case Recompute::Selective:
            m_out << "  per layer: 40sbh + 4as^2b + 16sb (the matmul outputs, attention "
                     "probabilities, residuals; ln1, ln2 and gelu recomputed) = "
                  << bytes(40 * sbh + 4 * as2b + 16 * sb) << "\n"
                  << "  once: 8sbh for the recomputed ln1 and ln2 = " << bytes(8 * sbh)
                  << " (gelu is recomputed into the d fch gradient buffer)\n";
            break;
        case Recompute::Full:
            m_out << "  per layer: 4sbh (the block's output, the next block's input) = "
                  << bytes(4 * sbh) << "\n"
                  << "  once: one block recomputed in backward, 44sbh + 4as^2b + 16sb = "
                  << bytes(44 * sbh + 4 * as2b + 16 * sb) << "\n";
            break;
        }
        m_out << "  once: embeddings, final layernorm, logits and probs (8sbVp), gradient scratch "
                 "= the rest of the arena\n";
        m_out << "  activations = " << bytes(static_cast<double>(m_sp.activation_bytes));
        for (std::size_t m = 0; m < kRecomputeNames.size(); ++m)
            m_out << (m == 0 ? "  (" : ", ") << kRecomputeNames[m] << " "
                  << bytes(static_cast<double>(m_sp.activation_bytes_by_mode[m]));
        m_out << ")\n";
    }

    void buffers() {
        if (m_sp.engine_buffers) {
            engineBuffers();
            return;
        }
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        m_out << "\nComm buffers: a reduce bucket of min(reduce_bucket_size = "
              << m_in.reduce_bucket_elements << ", psi) elements x " << b.grad << " bytes ("
              << dtypeName(b.grad) << ")";
        if (m_sp.stage == 3)
            m_out << " + a gather buffer of the largest gather unit x " << b.param << " bytes ("
                  << dtypeName(b.param) << ")";
        m_out << " = " << bytes(static_cast<double>(m_sp.comm_buffer_bytes)) << "\n";
        m_out << "Workspace: " << bytes(static_cast<double>(m_sp.workspace_bytes)) << "\n";
    }

    // zerolab's own GPT-2: the buffers engine_buffers.h allocates, slot by slot.
    void engineBuffers() {
        const StateBytes b = stateBytes(m_in, m_sp.stage);
        m_out << "\nComm buffers (zerolab's engine, exact):";
        if (m_sp.stage == 3)
            m_out << " all-gather slots for the embedding and the largest block x " << b.param
                  << " bytes (" << dtypeName(b.param) << ");";
        if (m_sp.stage >= 2)
            m_out << " fp32 reduce-scatter slots for the embedding and "
                  << (m_in.overlap_comm ? "two blocks (overlap_comm)" : "one block") << ";";
        if (m_sp.stage < 2)
            m_out << " none beyond the gradient buffer (all-reduce in place);";
        m_out << " = " << bytes(static_cast<double>(m_sp.comm_buffer_bytes)) << "\n";
        m_out << "Workspace (zerolab's engine, exact): fp32 copies of the embedding and one "
                 "block where params are bf16, fp32 gradient staging where grads are not fp32 "
                 "and not a comm bucket = "
              << bytes(static_cast<double>(m_sp.workspace_bytes)) << "\n";
    }

    void total() {
        m_out << "\nTotal per rank = model states + activations + comm buffers + workspace = "
              << bytes(static_cast<double>(m_sp.total_bytes)) << "\n";
    }

    void communication() {
        static constexpr const char* kPattern[] = {
            "all-reduce of the grads: 2 psi",
            "reduce-scatter of the grads (psi) + all-gather of the params (psi): 2 psi",
            "reduce-scatter of the grads each micro-step (A psi) + all-gather of the params "
            "(psi): (A + 1) psi",
            "all-gather of the params for forward and for backward (2 psi) + reduce-scatter of "
            "the grads (psi), each micro-step: 3 A psi",
        };
        m_out << "\nCommunication per optimizer step (A = " << m_in.grad_accumulation
              << " micro-steps): " << kPattern[m_sp.stage] << " = " << formatPsi(m_sp.comm_elements)
              << " elements = " << bytes(m_sp.comm_bytes) << "\n";
        m_out << "  traffic per rank (ring: each psi above x (N - 1) / N) = "
              << bytes(m_sp.traffic.total()) << " = " << formatPsi(m_sp.traffic_elements)
              << " elements";
        if (m_plan.psi > 0) {
            char v[32];
            std::snprintf(v, sizeof v, "%.3f", m_sp.traffic_elements / double(m_plan.psi));
            m_out << " = " << v << " psi";
        }
        if (m_sp.stage == 3 && m_sp.engine_buffers)
            m_out << " (zerolab's engine gathers less than 2A psi: its slots keep the tied "
                     "embedding for the whole step and the units at the forward/backward turn)";
        m_out << "\n  time = traffic / bandwidth = " << bytes(m_sp.traffic.total()) << " / "
              << m_in.bandwidth_gbps << " GB/s = " << m_sp.comm_seconds << " s\n";
    }

    void verdict() {
        m_out << "\nDevice " << m_in.device.label << ": "
              << bytes(static_cast<double>(m_in.device.capacity_bytes)) << " - "
              << bytes(static_cast<double>(m_in.device.reserve_bytes))
              << " reserved (CUDA context, cuBLAS, NCCL, fragmentation) = "
              << bytes(static_cast<double>(m_in.device.usableBytes())) << " usable; "
              << (m_sp.fits ? "fits with " : "short by ")
              << bytes(static_cast<double>(m_sp.fits ? m_sp.margin_bytes : -m_sp.margin_bytes))
              << (m_sp.fits ? " to spare" : "") << "\n";
    }

    const Plan& m_plan;
    const PlanInput& m_in;
    const StagePlan& m_sp;
    ByteUnit m_unit;
    std::ostringstream m_out;
};

} // namespace

std::string explain(const PlanInput& in, int stage, ByteUnit unit) {
    PlanInput at = in;
    at.stage = stage;
    const Plan p = plan(at);
    return Explainer(p, stage, unit).text();
}

} // namespace zerolab
