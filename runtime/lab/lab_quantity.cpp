// Quantities: the table, the planned side (a Plan's StagePlan, nothing recomputed here)
// and the measured side (a run's last logged step and its timeline in the store).
#include "runtime/lab/lab_quantity.h"

#include "runtime/lab/lesson.h"
#include "runtime/planner/step_time.h"
#include "storage/run_reader.h"

#include <algorithm>

#include <cmath>

namespace zerolab {

namespace {

using D = LabDimension;

const std::vector<LabQuantity> kQuantities = {
    {"params", D::Bytes, true, true, false, "ledger: parameters (param dtype)"},
    {"master_params", D::Bytes, true, true, false, "ledger: fp32 master weights"},
    {"grads", D::Bytes, true, true, false, "ledger: gradients"},
    {"optim_m", D::Bytes, true, true, false, "ledger: Adam's first moment"},
    {"optim_v", D::Bytes, true, true, false, "ledger: Adam's second moment"},
    {"activations", D::Bytes, true, true, false, "ledger: activations"},
    {"comm_buffers", D::Bytes, true, true, false, "ledger: communication buffers"},
    {"workspace", D::Bytes, true, true, false, "ledger: workspace"},
    {"optimizer_states", D::Bytes, true, true, false, "master_params + optim_m + optim_v"},
    {"model_states", D::Bytes, true, true, false, "params + master_params + grads + m + v"},
    {"total", D::Bytes, true, true, false, "every ledger category"},
    {"traffic_bytes", D::Bytes, true, true, false, "bytes sent per rank per optimizer step"},
    {"traffic_elements", D::Elements, true, true, false,
     "elements sent per rank per optimizer step"},
    {"allreduce_traffic_bytes", D::Bytes, true, true, false, "all-reduce traffic bytes"},
    {"reduce_scatter_traffic_bytes", D::Bytes, true, true, false, "reduce-scatter traffic bytes"},
    {"allgather_traffic_bytes", D::Bytes, true, true, false, "all-gather traffic bytes"},
    {"broadcast_traffic_bytes", D::Bytes, true, true, false, "broadcast traffic bytes"},
    {"alltoall_traffic_bytes", D::Bytes, true, true, false, "all-to-all traffic bytes (qgZ)"},
    {"within_traffic_bytes", D::Bytes, true, true, false,
     "traffic bytes to ranks of the same host"},
    {"across_traffic_bytes", D::Bytes, true, true, false, "traffic bytes to other hosts"},
    {"allreduce_count", D::Count, false, true, false, "all-reduces issued in the step"},
    {"reduce_scatter_count", D::Count, false, true, false, "reduce-scatters issued in the step"},
    {"allgather_count", D::Count, false, true, false, "all-gathers issued in the step"},
    {"broadcast_count", D::Count, false, true, false, "broadcasts issued in the step"},
    {"loss", D::Ratio, false, true, false, "training loss of the last step"},
    {"step_ms", D::Milliseconds, false, true, true, "wall time of the step (median)"},
    {"exposed_ms", D::Milliseconds, false, true, true,
     "time the step waited on collectives (median)"},
};

const std::vector<std::string> kVariables = {
    "psi", "psi_padded",   "N", "stage", "B", "T",     "L",  "C",   "H",   "V",
    "Vp",  "accumulation", "K", "P",     "G", "steps", "GB", "GiB", "MiB", "activation_bytes"};

// "reduce_scatter_count" -> ReduceScatter; nullopt when name is not "<collective><suffix>".
std::optional<Collective> collectiveOf(std::string_view name, std::string_view suffix) {
    if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix)
        return std::nullopt;
    return collectiveFromName(name.substr(0, name.size() - suffix.size()));
}

std::optional<double> ledgerQuantity(const MemBreakdown& m, std::string_view name) {
    if (const auto c = memCategoryFromName(name))
        return static_cast<double>(m[*c]);
    if (name == "optimizer_states")
        return static_cast<double>(m[MemCategory::MasterParams] + m[MemCategory::OptimM] +
                                   m[MemCategory::OptimV]);
    if (name == "model_states")
        return static_cast<double>(m.modelStatesOnly().total());
    if (name == "total")
        return static_cast<double>(m.total());
    return std::nullopt;
}

// Bytes of one element a collective moves (docs/engine.md): gradients (all-reduce,
// reduce-scatter) at the gradient dtype, parameters (all-gather, broadcast) at the param
// dtype; bf16 in mixed precision, fp32 otherwise and for data_types.grad_accum_dtype fp32.
double collectiveElementBytes(const TrainConfig& c, Collective k) {
    const bool grads = k == Collective::AllReduce || k == Collective::ReduceScatter;
    return c.precision == Precision::Bf16Mixed && !(grads && c.grad_accum_fp32) ? 2 : 4;
}

void addShape(ExprVariables& v, const ModelShape& s, int micro_batch, int seq_len) {
    v["B"] = micro_batch;
    v["T"] = seq_len > 0 ? seq_len : s.seq_len;
    v["L"] = s.n_layer;
    v["C"] = s.n_embd;
    v["H"] = s.n_head;
    v["V"] = s.vocab_size;
    v["Vp"] = s.padded_vocab_size;
}

} // namespace

const std::vector<LabQuantity>& labQuantities() {
    return kQuantities;
}

const LabQuantity* findLabQuantity(std::string_view name) {
    for (const LabQuantity& q : kQuantities)
        if (q.name == name)
            return &q;
    return nullptr;
}

const std::vector<std::string>& labVariableNames() {
    return kVariables;
}

LabRunData readLabRun(RunReader& reader, std::int64_t run_id) {
    LabRunData d;
    d.run_id = run_id;
    const RunRecord rec = reader.run(run_id);
    d.name = rec.info.name;
    d.status = rec.status;
    const auto doc = nlohmann::json::parse(rec.info.config_json, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        throw LessonError("run " + std::to_string(run_id) + " (" + d.name +
                          "): the store holds no resolved config");
    const ConfigResult parsed = parseConfig(doc, rec.info.world, "run " + std::to_string(run_id));
    if (!parsed.ok())
        throw LessonError("run " + std::to_string(run_id) + " (" + d.name +
                          "): its stored config does not validate");
    d.config = *parsed.config;
    try {
        d.plan = plan(planInputFromConfig(d.config));
        d.predicted = predictRun(d.config);
    } catch (const PlanError& e) {
        throw LessonError("run " + std::to_string(run_id) + " (" + d.name +
                          "): the planner cannot plan it: " + e.what());
    }
    const auto span = reader.stepSpan(run_id);
    if (!span)
        throw LessonError("run " + std::to_string(run_id) + " (" + d.name + "): logged no step");
    d.steps = reader.steps(run_id);
    d.last_step = d.steps.back();
    d.last_step.ranks = reader.rankRows(run_id, span->second);
    d.timeline = reader.timeline(run_id, span->second);
    return d;
}

std::map<std::string, LabRunData> readStepRuns(const std::map<std::string, std::int64_t>& ids,
                                               const std::string& db_path) {
    std::map<std::string, LabRunData> out;
    if (ids.empty())
        return out;
    RunReader reader(RunStore::open(db_path, OpenMode::ReadOnly));
    for (const auto& [id, run_id] : ids)
        out.emplace(id, readLabRun(reader, run_id));
    return out;
}

std::optional<double> measuredQuantity(const LabRunData& run, std::string_view name, int rank) {
    const StepRecord& s = run.last_step;
    if (name == "step_ms" || name == "exposed_ms") {
        std::vector<double> ms;
        for (std::size_t i = run.steps.size() > 1 ? 1 : 0; i < run.steps.size(); ++i) {
            const StepRecord& r = run.steps[i];
            const double v = name == "step_ms" ? r.step_ms : r.comm.exposed_ms;
            if (std::isfinite(v))
                ms.push_back(v);
        }
        if (ms.empty())
            return std::nullopt;
        std::sort(ms.begin(), ms.end());
        const std::size_t h = ms.size() / 2;
        return ms.size() % 2 ? ms[h] : (ms[h - 1] + ms[h]) / 2;
    }
    if (name == "loss")
        return std::isfinite(s.loss) ? std::optional<double>(s.loss) : std::nullopt;
    if (name == "traffic_bytes" || name == "traffic_elements") {
        double bytes = 0, elements = 0;
        bool any = false;
        for (std::size_t k = 0; k < kCollectiveCount; ++k)
            if (const double b = s.traffic.bytes[k]; std::isfinite(b)) {
                bytes += b;
                elements += b / collectiveElementBytes(run.config, static_cast<Collective>(k));
                any = true;
            }
        if (std::isfinite(s.traffic.alltoall))
            bytes += s.traffic.alltoall;
        if (!any)
            return std::nullopt;
        return name == "traffic_bytes" ? bytes : elements;
    }
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        if (name == kLinkColumnNames[c]) {
            const double b = s.traffic.linkColumns()[c];
            return std::isfinite(b) ? std::optional<double>(b) : std::nullopt;
        }
    if (const auto c = collectiveOf(name, "_traffic_bytes")) {
        const double b = s.traffic[*c];
        return std::isfinite(b) ? std::optional<double>(b) : std::nullopt;
    }
    if (const auto c = collectiveOf(name, "_count")) {
        if (!run.timeline)
            return std::nullopt;
        double n = 0;
        for (const TimelineSpan& sp : run.timeline->spans)
            n += sp.rank == rank && sp.kind == SpanKind::Collective && sp.collective == *c;
        return n;
    }
    for (const RankRecord& r : s.ranks)
        if (r.rank == rank)
            return ledgerQuantity(r.mem, name);
    return std::nullopt;
}

std::optional<double> plannedQuantity(const Plan& p, int stage, std::string_view name) {
    if (stage < 0 || stage > 3)
        return std::nullopt;
    const StagePlan& sp = p.stages[static_cast<std::size_t>(stage)];
    if (name == "traffic_bytes")
        return sp.traffic.total();
    if (name == "traffic_elements")
        return sp.traffic_elements;
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        if (name == kLinkColumnNames[c])
            return sp.traffic.linkColumns()[c];
    if (const auto c = collectiveOf(name, "_traffic_bytes"))
        return sp.traffic[*c];
    return ledgerQuantity(sp.per_rank, name);
}

std::optional<double> forecastTime(const LabRunData& run, const MachineProfile& profile,
                                   std::string_view name) {
    const TrainConfig& c = run.config;
    const int per_host = c.run.ranks_per_host;
    const ClusterShape cluster{per_host > 0 ? c.batch.world / per_host : 1};
    StepTimeForecast f;
    try {
        f = predictStepTime(c, profile, cluster);
    } catch (const PlanError& e) {
        throw LessonError("run " + std::to_string(run.run_id) + " (" + run.name +
                          "): the step-time model cannot forecast it on this profile: " + e.what());
    }
    if (name == "step_ms")
        return f.step_s * 1000;
    if (name == "exposed_ms")
        return f.comm_exposed_s * 1000;
    return std::nullopt;
}

ExprVariables planVariables(const Plan& p, int stage) {
    const PlanInput& in = p.input;
    ExprVariables v;
    v["psi"] = static_cast<double>(p.psi);
    v["psi_padded"] = static_cast<double>(p.psi_padded);
    v["N"] = in.world;
    v["stage"] = stage;
    v["accumulation"] = in.grad_accumulation;
    const bool mixed = in.precision == Precision::Bf16Mixed;
    v["K"] = mixed ? 12 : 8;
    v["P"] = mixed ? 2 : 4;
    v["G"] = mixed && !in.grad_accum_fp32 ? 2 : 4;
    v["GB"] = 1e9;
    v["GiB"] = 1024.0 * 1024.0 * 1024.0;
    v["MiB"] = 1024.0 * 1024.0;
    v["activation_bytes"] =
        static_cast<double>(p.stages[static_cast<std::size_t>(stage)].activation_bytes);
    if (in.shape)
        addShape(v, *in.shape, in.micro_batch, in.seq_len);
    return v;
}

ExprVariables runVariables(const LabRunData& run) {
    ExprVariables v = planVariables(run.plan, run.config.zero.stage);
    v["steps"] = run.config.run.steps;
    addShape(v, run.config.model.shape, run.config.batch.micro_batch, run.config.model.seq_len);
    return v;
}

} // namespace zerolab
