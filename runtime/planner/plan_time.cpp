// zerolab-plan --time's search and report (plan_time.h).
#include "runtime/planner/plan_time.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/planner_units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zerolab {

ModelShape assumedShape(double params) {
    struct Row {
        double params;
        int layers, hidden, heads;
    };
    static constexpr Row kGpt3[] = {{125e6, 12, 768, 12},  {350e6, 24, 1024, 16},
                                    {760e6, 24, 1536, 16}, {1.3e9, 24, 2048, 16},
                                    {2.7e9, 32, 2560, 32}, {6.7e9, 32, 4096, 32},
                                    {13e9, 40, 5120, 40},  {175e9, 96, 12288, 96}};
    const Row* best = &kGpt3[0];
    for (const Row& r : kGpt3)
        if (std::abs(std::log(r.params / params)) < std::abs(std::log(best->params / params)))
            best = &r;
    return ModelShape{best->layers, best->heads, best->hidden, 2048, 50257, padVocab(50257)};
}

TrainConfig timeConfig(const PlanInput& in, int stage, int micro_batch) {
    TrainConfig c;
    c.model.shape = in.shape ? *in.shape : assumedShape(in.params);
    c.model.seq_len = in.seq_len > 0 ? in.seq_len : c.model.shape.seq_len;
    c.model.recompute = in.recompute;
    c.precision = in.precision;
    c.batch.world = in.world;
    c.batch.micro_batch = micro_batch;
    c.batch.grad_accum = in.grad_accumulation;
    c.batch.train_batch_size = in.world * micro_batch * in.grad_accumulation;
    c.zero.stage = stage;
    c.zero.overlap_comm = in.overlap_comm;
    c.zero.reduce_scatter = in.reduce_scatter;
    c.zero.allgather_partitions = in.allgather_partitions;
    c.zero.reduce_bucket_size = in.reduce_bucket_elements;
    c.zero.allgather_bucket_size = in.allgather_bucket_elements;
    return c;
}

namespace {

// The largest micro-batch in 1..kMaxMicroSearch at which `stage` fits; 0 when 1 does not.
// Memory grows with the micro-batch (activations), so a bisection finds it.
int largestFittingMicro(const PlanInput& base, int stage) {
    auto fits = [&](int b) {
        PlanInput pi = base;
        pi.micro_batch = b;
        pi.stage = stage;
        return plan(pi).stages[static_cast<std::size_t>(stage)].fits;
    };
    if (!fits(1))
        return 0;
    if (fits(kMaxMicroSearch))
        return kMaxMicroSearch;
    int lo = 1, hi = kMaxMicroSearch; // fits(lo), !fits(hi)
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

} // namespace

TimePlan planTime(const PlanInput& in, const MachineProfile& profile, const ClusterShape& cluster) {
    TimePlan t;
    t.hosts = cluster.hosts;
    PlanInput base = in;
    if (!base.shape) {
        base.shape = assumedShape(in.params);
        const ModelShape& s = *base.shape;
        t.assumptions.push_back("no shape given: the GPT-3 shape nearest " + formatPsi(in.params) +
                                " parameters, L = " + std::to_string(s.n_layer) + ", C = " +
                                std::to_string(s.n_embd) + ", " + std::to_string(s.n_head) +
                                " heads, T = " + std::to_string(s.seq_len) + ", V = 50257");
    }
    for (int stage = 0; stage < 4; ++stage) {
        const int largest = in.micro_batch > 0 ? -1 : largestFittingMicro(base, stage);
        std::vector<int> micros;
        if (in.micro_batch > 0)
            micros.push_back(in.micro_batch);
        else
            for (int b = 1; b <= std::max(largest, 1); ++b)
                micros.push_back(b);
        std::optional<TimedStage> best, smallest;
        for (int b : micros) {
            PlanInput pi = base;
            pi.micro_batch = b;
            pi.stage = stage;
            TimedStage ts{stage, b, plan(pi).stages[static_cast<std::size_t>(stage)],
                          predictStepTime(timeConfig(pi, stage, b), profile, cluster)};
            if (!smallest)
                smallest = ts;
            if (ts.memory.fits && (!best || ts.time.tokens_per_s > best->time.tokens_per_s))
                best = ts;
        }
        t.stages.push_back(best ? *best : *smallest);
        t.stages.back().largest_fitting = largest;
        if (t.assumptions.size() < 2)
            for (const std::string& a : t.stages.back().time.assumptions)
                t.assumptions.push_back(a);
    }
    for (std::size_t i = 0; i < t.stages.size(); ++i)
        if (t.stages[i].memory.fits &&
            (!t.fastest || t.stages[i].time.tokens_per_s >
                               t.stages[static_cast<std::size_t>(*t.fastest)].time.tokens_per_s))
            t.fastest = static_cast<int>(i);
    t.profile = profile.source + " '" + profile.name + "'";
    if (profile.source == "preset") {
        char frac[96];
        std::snprintf(frac, sizeof frac, ": matmuls by shape up to %.1f%% of %s TFLOP/s",
                      profile.rates[0] / profile.peak_flops * 100,
                      threeDigits(profile.peak_flops / 1e12).c_str());
        t.profile += frac;
    } else {
        t.profile += " of " + profile.date;
    }
    if (profile.intra_link)
        t.profile += "; within a host " + profile.intra_link->label;
    if (profile.inter_link && cluster.hosts > 1)
        t.profile += "; between hosts " + profile.inter_link->label;
    return t;
}

std::string formatTimeTable(const TimePlan& t) {
    std::string out = "Step time per rank (" + t.profile + ")\n";
    char line[320];
    std::snprintf(line, sizeof line,
                  "%-6s %-6s %-10s %-10s %-10s %-10s %-10s %-11s %-10s %-12s %-6s %-11s %s\n",
                  "stage", "micro", "step", "forward", "backward", "recompute", "optimizer", "comm",
                  "exposed", "tokens/s", "MFU", "memory", "fits");
    out += line;
    for (const TimedStage& s : t.stages) {
        const StepTimeForecast& f = s.time;
        std::snprintf(line, sizeof line,
                      "%-6d %-6d %-10s %-10s %-10s %-10s %-10s %-11s %-10s %-12.0f %-6s %-11s %s\n",
                      s.stage, s.micro_batch, formatSeconds(f.step_s).c_str(),
                      formatSeconds(f.forward_s).c_str(), formatSeconds(f.backward_s).c_str(),
                      formatSeconds(f.recompute_s).c_str(), formatSeconds(f.optimizer_s).c_str(),
                      formatSeconds(f.comm_in_flight_s).c_str(),
                      formatSeconds(f.comm_exposed_s).c_str(), f.tokens_per_s,
                      (threeDigits(f.mfu * 100) + "%").c_str(),
                      formatBytes(static_cast<double>(s.memory.total_bytes), ByteUnit::GB).c_str(),
                      s.memory.fits ? "yes" : "no");
        out += line;
    }
    if (!t.stages.empty() && t.stages.front().largest_fitting >= 0) {
        out += "Micro-batches tried (every one that fits, up to " +
               std::to_string(kMaxMicroSearch) + "):";
        for (const TimedStage& s : t.stages) {
            out += " stage " + std::to_string(s.stage) + ": ";
            if (s.largest_fitting == 0)
                out += "1 (does not fit)";
            else if (s.largest_fitting == 1)
                out += "1 (2 does not fit)";
            else
                out += "1-" + std::to_string(s.largest_fitting) +
                       (s.largest_fitting == kMaxMicroSearch ? " (the search's end)" : "");
            out += s.stage < 3 ? ";" : "\n";
        }
    }
    if (t.fastest) {
        const TimedStage& s = t.stages[static_cast<std::size_t>(*t.fastest)];
        out += "Fastest that fits: stage " + std::to_string(s.stage) + ", micro-batch " +
               std::to_string(s.micro_batch) + ": " + formatSeconds(s.time.step_s) + " a step, " +
               std::to_string(static_cast<long long>(std::llround(s.time.tokens_per_s))) +
               " tokens/s\n";
    } else {
        out += "No stage fits at any micro-batch tried.\n";
    }
    out += "Assumed:\n";
    for (const std::string& a : t.assumptions)
        out += "  - " + a + "\n";
    return out;
}

nlohmann::json toJson(const TimePlan& t) {
    nlohmann::json stages = nlohmann::json::array();
    for (const TimedStage& s : t.stages) {
        const StepTimeForecast& f = s.time;
        nlohmann::json comm = nlohmann::json::object();
        for (std::size_t k = 0; k < kCollectiveCount; ++k)
            comm[std::string(kCollectiveNames[k])] = {{"in_flight_s", f.in_flight_s[k]},
                                                      {"exposed_s", f.exposed_s[k]}};
        stages.push_back({{"stage", s.stage},
                          {"micro_batch", s.micro_batch},
                          {"step_s", f.step_s},
                          {"forward_s", f.forward_s},
                          {"backward_s", f.backward_s},
                          {"recompute_s", f.recompute_s},
                          {"optimizer_s", f.optimizer_s},
                          {"engine_s", f.engine_s},
                          {"compute_beside_comm_s", f.compute_beside_comm_s},
                          {"comm_in_flight_s", f.comm_in_flight_s},
                          {"comm_exposed_s", f.comm_exposed_s},
                          {"collectives", comm},
                          {"tokens_per_s", f.tokens_per_s},
                          {"mfu", f.mfu},
                          {"compute_scale", f.compute_scale},
                          {"total_bytes", s.memory.total_bytes},
                          {"fits", s.memory.fits}});
        if (s.largest_fitting >= 0)
            stages.back()["micro_batches_tried"] = {1, std::max(s.largest_fitting, 1)};
    }
    nlohmann::json j = {{"profile", t.profile},
                        {"hosts", t.hosts},
                        {"stages", stages},
                        {"assumptions", t.assumptions}};
    if (t.fastest)
        j["fastest"] = {
            {"stage", t.stages[static_cast<std::size_t>(*t.fastest)].stage},
            {"micro_batch", t.stages[static_cast<std::size_t>(*t.fastest)].micro_batch}};
    else
        j["fastest"] = nullptr;
    return j;
}

} // namespace zerolab
